import { usePendingNominations } from '../api/get-pending';
import { queueItems } from '../api/queue';
import { useErrorToast } from '../hooks/use-error-toast';

import { ListEmpty, ListError, ListSkeleton, LoadMoreButton } from './list-states';
import { PendingRow, type RenderEditPlayer } from './pending-row';

/** The moderation queue, newest first; it changes live as nominations arrive and are decided. */
export function PendingTab({ renderEditPlayer }: { renderEditPlayer?: RenderEditPlayer }) {
  const query = usePendingNominations();
  useErrorToast(query.error, 'Failed to fetch pending nominations');
  const items = queueItems(query.data);

  if (query.isPending) return <ListSkeleton />;
  if (query.isError) {
    return (
      <ListError
        title="Pending nominations could not be loaded"
        onRetry={() => void query.refetch()}
        retrying={query.isRefetching}
      />
    );
  }
  if (items.length === 0) {
    return (
      <ListEmpty
        title="No pending nominations"
        description="New nominations appear here as soon as they are submitted."
      />
    );
  }
  return (
    <>
      <ul className="flex flex-col gap-3" aria-label="Pending nominations">
        {items.map((item) => (
          <PendingRow key={item.id} item={item} renderEditPlayer={renderEditPlayer} />
        ))}
      </ul>
      {query.hasNextPage && (
        <LoadMoreButton
          onClick={() => void query.fetchNextPage()}
          loading={query.isFetchingNextPage}
        />
      )}
    </>
  );
}
