import { format } from 'date-fns';
import { Flag, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { VideoEmbed } from '@/components/video-embed';

import { useDeleteUpdate, usePlayerUpdates, type PlayerUpdate } from '../api/updates';

import { UpdateForm } from './update-form';

const AUTHOR_ROLES: Record<PlayerUpdate['authorRole'], string> = {
  claimant: "the athlete's family",
  coach: 'verified coach',
  admin: 'admin',
  member: 'member',
};

type Viewer = { id: number | undefined; isAdmin: boolean; isClaimant: boolean };

function UpdateItem({
  update,
  playerId,
  viewer,
}: {
  update: PlayerUpdate;
  playerId: number;
  viewer: Viewer;
}) {
  const remove = useDeleteUpdate(playerId);
  const canDelete = viewer.isAdmin || viewer.isClaimant || viewer.id === update.author.id;
  const headingId = `update-${update.id}`;
  return (
    <li
      aria-labelledby={headingId}
      className={
        update.milestone
          ? 'relative border-l-4 border-primary pl-4'
          : 'relative border-l-2 border-border pl-4'
      }
    >
      <div className="flex flex-wrap items-center gap-2">
        <time dateTime={update.createdAt} className="text-xs text-muted-foreground">
          {format(new Date(update.createdAt), 'd MMM yyyy')}
        </time>
        {update.milestone && (
          <Badge variant="primary">
            <Flag aria-hidden="true" className="size-3" />
            Milestone
          </Badge>
        )}
        {update.status === 'pending' && <Badge variant="yellow">Waiting for review</Badge>}
        {update.status === 'rejected' && <Badge variant="red">Not approved</Badge>}
      </div>
      <h3 id={headingId} className="mt-1 font-semibold" dir="auto">
        {update.title}
      </h3>
      <p className="text-xs text-muted-foreground">
        by {update.author.name}, {AUTHOR_ROLES[update.authorRole]}
      </p>
      {update.content && (
        <p className="mt-2 text-sm whitespace-pre-wrap" dir="auto">
          {update.content}
        </p>
      )}
      {update.imageUrl && (
        <img
          src={update.imageUrl}
          alt={`Picture with the update "${update.title}"`}
          loading="lazy"
          className="mt-3 max-h-96 w-full max-w-xl rounded-lg border border-border object-contain"
        />
      )}
      {update.video && (
        <div className="mt-3 max-w-xl">
          <VideoEmbed video={update.video} title={update.title} />
        </div>
      )}
      {canDelete && (
        <Button
          variant="ghost"
          size="sm"
          className="mt-2 -ml-3"
          disabled={remove.isPending}
          aria-label={`Delete the update "${update.title}"`}
          onClick={() => remove.mutate(update.id)}
        >
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      )}
    </li>
  );
}

/**
 * The Updates section of a player's page: the timeline of what the family and verified
 * coaches posted, newest first, milestones marked; live (a new update shows without reload).
 * The claimant and verified coaches get the form.
 */
export function PlayerUpdates({
  playerId,
  canWrite,
  viewer,
}: {
  playerId: number;
  canWrite: boolean;
  viewer: Viewer;
}) {
  const query = usePlayerUpdates(playerId);
  const [writing, setWriting] = useState(false);
  const updates = query.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section
      aria-labelledby="player-updates"
      className="mt-6 rounded-xl border border-border bg-surface p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="player-updates" className="text-lg font-semibold">
          Updates
        </h2>
        {canWrite && !writing && (
          <Button size="sm" onClick={() => setWriting(true)}>
            <Plus aria-hidden="true" />
            Post an update
          </Button>
        )}
      </div>
      {writing && <UpdateForm playerId={playerId} onDone={() => setWriting(false)} />}
      {query.isPending ? (
        <p className="mt-4 text-sm text-muted-foreground">Loading updates…</p>
      ) : query.isError ? (
        <p className="mt-4 text-sm text-destructive">Could not load the updates.</p>
      ) : updates.length === 0 ? (
        <p className="mt-4 text-sm text-muted-foreground">No updates yet.</p>
      ) : (
        <ol aria-label="Updates, newest first" className="mt-4 flex flex-col gap-5">
          {updates.map((update) => (
            <UpdateItem key={update.id} update={update} playerId={playerId} viewer={viewer} />
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <Button
          variant="outline"
          size="sm"
          className="mt-4"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          Show older updates
        </Button>
      )}
    </section>
  );
}
