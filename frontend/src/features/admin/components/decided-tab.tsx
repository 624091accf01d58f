import { Card } from '@/components/ui/card';

import { useDecidedNominations } from '../api/get-decided';
import type { Decision } from '../api/types';
import { useErrorToast } from '../hooks/use-error-toast';

import { ListEmpty, ListError, ListSkeleton } from './list-states';
import { NominationSummary } from './nomination-summary';

const TEXT: Record<Decision, { failure: string; title: string; empty: string }> = {
  approved: {
    failure: 'Failed to fetch approved nominations',
    title: 'Approved nominations',
    empty: 'No approved nominations',
  },
  rejected: {
    failure: 'Failed to fetch rejected nominations',
    title: 'Rejected nominations',
    empty: 'No rejected nominations',
  },
};

/** The newest 50 approved or rejected nominations. */
export function DecidedTab({ status }: { status: Decision }) {
  const query = useDecidedNominations(status);
  const text = TEXT[status];
  useErrorToast(query.error, text.failure);

  if (query.isPending) return <ListSkeleton />;
  if (query.isError) {
    return (
      <ListError
        title={`${text.title} could not be loaded`}
        onRetry={() => void query.refetch()}
        retrying={query.isRefetching}
      />
    );
  }
  if (query.data.length === 0) return <ListEmpty title={text.empty} />;
  return (
    <ul className="flex flex-col gap-3" aria-label={text.title}>
      {query.data.map((nomination) => (
        <li key={nomination.id}>
          <Card className="p-5">
            <NominationSummary nomination={nomination} showStatus />
          </Card>
        </li>
      ))}
    </ul>
  );
}
