import { useState } from 'react';

import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';

import { useModlog } from '../api/safety';
import type { ModlogAction, ModlogEntry, ModlogFilters } from '../api/types';

import { Age } from './age';
import { ListEmpty, ListSkeleton, LoadMoreButton } from './list-states';

const ACTION_LABELS: Record<ModlogAction, string> = {
  nomination_approve: 'approved a nomination',
  nomination_reject: 'rejected a nomination',
  player_verify: 'verified a player',
  player_unverify: 'removed a verification',
  player_edit: 'edited a player',
  player_restore: 'restored a taken-down player',
  user_role_change: 'changed a role',
  user_delete: 'deleted a user',
  report_resolve: 'resolved reports',
  takedown_decide: 'decided a takedown request',
  votes_void: 'voided votes',
  votes_restore: 'restored voided votes',
  claim_approve: 'approved a claim of',
  claim_reject: 'rejected a claim of',
  claim_transfer: 'transferred a claim of',
  claim_revoke: 'revoked a claim of',
  player_update_approve: 'published an update on',
  player_update_reject: 'refused an update on',
  coach_approve: 'verified a coach',
  coach_reject: 'rejected a coach verification of',
  coach_withdraw: "withdrew a coach's badge",
  comment_approve: 'approved a comment:',
  comment_remove: 'removed a comment:',
  comment_restore: 'restored a comment:',
  club_merge: 'merged clubs into',
};

function changesText(changes: ModlogEntry['changes']) {
  return Object.entries(changes)
    .map(([field, value]) => {
      const [before, after] = Array.isArray(value) ? value : [undefined, value];
      return `${field}: ${JSON.stringify(before ?? null)} → ${JSON.stringify(after ?? null)}`;
    })
    .join('; ');
}

function toNumber(value: string) {
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** The moderation log, newest first and live, with filters by actor, action, target and date. */
export function LogTab() {
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [targetType, setTargetType] = useState('');
  const [targetId, setTargetId] = useState('');
  const [since, setSince] = useState('');
  const filters: ModlogFilters = {
    actor: toNumber(actor),
    action: (action || undefined) as ModlogAction | undefined,
    targetType: (targetType || undefined) as ModlogFilters['targetType'],
    targetId: targetType ? toNumber(targetId) : undefined,
    since: since ? new Date(`${since}T00:00:00`).toISOString() : undefined,
  };
  const log = useModlog(filters);
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <>
      <form
        className="mb-4 grid gap-3 sm:grid-cols-5"
        aria-label="Filter the log"
        onSubmit={(event) => event.preventDefault()}
      >
        <Field id="log-actor" label="Admin id">
          <Input
            id="log-actor"
            inputMode="numeric"
            value={actor}
            onChange={(e) => setActor(e.target.value)}
          />
        </Field>
        <Field id="log-action" label="Action">
          <NativeSelect id="log-action" value={action} onChange={(e) => setAction(e.target.value)}>
            <option value="">Any</option>
            {Object.entries(ACTION_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="log-target-type" label="Target">
          <NativeSelect
            id="log-target-type"
            value={targetType}
            onChange={(e) => setTargetType(e.target.value)}
          >
            <option value="">Any</option>
            <option value="nomination">Nomination</option>
            <option value="player">Player</option>
            <option value="user">User</option>
            <option value="takedown">Takedown request</option>
            <option value="club">Club</option>
          </NativeSelect>
        </Field>
        <Field id="log-target-id" label="Target id">
          <Input
            id="log-target-id"
            inputMode="numeric"
            disabled={!targetType}
            value={targetId}
            onChange={(e) => setTargetId(e.target.value)}
          />
        </Field>
        <Field id="log-since" label="Since">
          <Input
            id="log-since"
            type="date"
            value={since}
            onChange={(e) => setSince(e.target.value)}
          />
        </Field>
      </form>
      {log.isPending ? (
        <ListSkeleton />
      ) : entries.length === 0 ? (
        <ListEmpty title="No log entries" description="Admin actions appear here as they happen." />
      ) : (
        <ol className="flex flex-col gap-2" aria-label="Moderation log">
          {entries.map((entry) => (
            <li
              key={entry.id}
              className="rounded-lg border border-border bg-surface px-4 py-3 text-sm"
            >
              <p>
                <span className="font-semibold">{entry.actorName}</span>{' '}
                {ACTION_LABELS[entry.action]}:{' '}
                <span className="font-medium">
                  {entry.targetLabel || `${entry.targetType} #${entry.targetId}`}
                </span>{' '}
                <span className="text-muted-foreground">
                  (<Age since={entry.createdAt} />)
                </span>
              </p>
              {entry.reason && <p className="mt-1">Reason: {entry.reason}</p>}
              {Object.keys(entry.changes).length > 0 && (
                <p className="mt-1 font-mono text-xs text-muted-foreground">
                  {changesText(entry.changes)}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {log.hasNextPage && (
        <LoadMoreButton onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} />
      )}
    </>
  );
}
