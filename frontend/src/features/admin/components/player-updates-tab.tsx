import { format } from 'date-fns';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { VideoEmbed } from '@/components/video-embed';

import { useDecideUpdate, useUpdatesQueue, type AdminPlayerUpdate } from '../api/player-updates';

const AUTHOR_ROLES: Record<AdminPlayerUpdate['authorRole'], string> = {
  claimant: "the athlete's family",
  coach: 'verified coach',
  admin: 'admin',
  member: 'member',
};

function UpdateRow({ update }: { update: AdminPlayerUpdate }) {
  const [reason, setReason] = useState('');
  const decide = useDecideUpdate();
  return (
    <li
      className="rounded-xl border border-border bg-surface p-4 shadow-sm"
      aria-label={`Update on ${update.player.name}: ${update.title}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold">
          {update.player.name}: {update.title}
        </h2>
        <p className="text-xs text-muted-foreground">
          {format(new Date(update.createdAt), 'd MMM yyyy, HH:mm')}
        </p>
      </div>
      <p className="mt-1 text-sm">
        <span className="text-muted-foreground">By </span>
        <Link to={`/scout/${update.author.id}`} className="underline">
          {update.author.name} (@{update.author.username})
        </Link>
        <span className="text-muted-foreground">, {AUTHOR_ROLES[update.authorRole]}</span>
        {update.milestone && <span className="text-muted-foreground"> · milestone</span>}
      </p>
      {update.content && (
        <p className="mt-2 text-sm whitespace-pre-wrap" dir="auto">
          {update.content}
        </p>
      )}
      <div className="mt-3 max-w-md">
        {update.imageUrl && (
          <img
            src={update.imageUrl}
            alt={`Picture sent with "${update.title}"`}
            className="max-h-80 rounded-lg border border-border object-contain"
          />
        )}
        {update.video && (
          <>
            <VideoEmbed video={update.video} title={update.title} />
            <p className="mt-1 text-xs break-all text-muted-foreground">{update.video.url}</p>
          </>
        )}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Input
          aria-label={`Reason for the update "${update.title}" (optional)`}
          placeholder="Reason (optional)"
          maxLength={500}
          className="max-w-xs"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        <Button
          size="sm"
          disabled={decide.isPending}
          onClick={() => decide.mutate({ id: update.id, action: 'approve', reason: reason.trim() })}
        >
          <Check aria-hidden="true" />
          Publish update
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={decide.isPending}
          onClick={() => decide.mutate({ id: update.id, action: 'reject', reason: reason.trim() })}
        >
          <X aria-hidden="true" />
          Refuse update
        </Button>
      </div>
    </li>
  );
}

/**
 * The Player updates tab: updates waiting with a picture or a video (or about an unclaimed
 * child under 13), with the player and the author; live across admins.
 */
export function PlayerUpdatesTab() {
  const queue = useUpdatesQueue();
  if (queue.isPending)
    return <p className="py-6 text-sm text-muted-foreground">Loading player updates…</p>;
  if (queue.isError)
    return <p className="py-6 text-sm text-destructive">Could not load the player updates.</p>;
  if (queue.data.length === 0) {
    return <p className="py-6 text-sm text-muted-foreground">No player updates waiting.</p>;
  }
  return (
    <ul className="mt-4 flex flex-col gap-3">
      {queue.data.map((update) => (
        <UpdateRow key={update.id} update={update} />
      ))}
    </ul>
  );
}
