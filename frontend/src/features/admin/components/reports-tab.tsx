import { Flag, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

import {
  useDecideTakedown,
  useHiddenNominations,
  useReportGroups,
  useResolveReports,
  useRestorePlayer,
  useTakedownRefusals,
  useTakedowns,
  type ResolveVariables,
} from '../api/safety';
import type { ReportAction, ReportGroup, Takedown, TakedownDecision } from '../api/types';

import { Age } from './age';
import { ListEmpty, ListSkeleton } from './list-states';
import { ReasonDialog } from './reason-dialog';

const REASON_LABELS: Record<string, string> = {
  not_real: 'Not a real athlete',
  wrong_information: 'Wrong information',
  inappropriate: 'Inappropriate content',
  privacy: 'Privacy',
  other: 'Other',
};

const NOMINATION_ACTIONS: { value: ReportAction; label: string }[] = [
  { value: 'dismiss', label: 'Dismiss the reports' },
  { value: 'edit_player', label: 'Player edited (use Edit Player first)' },
  { value: 'hide_nomination', label: 'Hide the nomination' },
  { value: 'warn_user', label: 'Warn the nominator' },
  { value: 'remove_user', label: 'Remove the nominator and their data' },
];
const PROFILE_ACTIONS: { value: ReportAction; label: string }[] = [
  { value: 'dismiss', label: 'Dismiss the reports' },
  { value: 'warn_user', label: 'Warn the scout' },
  { value: 'remove_user', label: 'Remove the scout and their data' },
];
const ENDORSEMENT_ACTIONS: { value: ReportAction; label: string }[] = [
  { value: 'dismiss', label: 'Dismiss the reports' },
  { value: 'hide_endorsement', label: 'Hide the endorsement' },
  { value: 'warn_user', label: 'Warn the coach' },
  { value: 'remove_user', label: 'Remove the coach and their data' },
];
const TAKEDOWN_DECISIONS: { value: TakedownDecision; label: string }[] = [
  { value: 'remove', label: 'Keep the profile off the site' },
  { value: 'correct', label: 'Corrected (edit the player first): show it again' },
  { value: 'restore', label: 'Decline the request: show it again' },
];

function TakedownItem({ request }: { request: Takedown }) {
  const [open, setOpen] = useState(false);
  const decide = useDecideTakedown();
  const unconfirmed = request.status === 'unconfirmed';
  return (
    <li className="rounded-xl border border-warning/40 bg-surface p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-semibold">
            <ShieldAlert className="mr-1 inline size-4 text-warning" aria-hidden="true" />
            Takedown {request.reference}: {request.player.name}{' '}
            {unconfirmed && <Badge variant="neutral">Unconfirmed</Badge>}
          </p>
          <p className="text-sm text-muted-foreground">
            {request.relationship === 'athlete' ? 'The athlete' : 'A parent or guardian'} asks to{' '}
            {request.kind === 'remove' ? 'remove' : 'correct'} the profile · {request.contactEmail}{' '}
            · <Age since={request.createdAt} prefix="waiting " />
          </p>
          {request.details && <p className="mt-2 text-sm whitespace-pre-line">{request.details}</p>}
          {request.nominationId && (
            <Link
              to={`/nominations/${request.nominationId}`}
              className="mt-1 inline-block text-sm text-primary hover:underline"
            >
              Open the player page
            </Link>
          )}
        </div>
        <Button size="sm" onClick={() => setOpen(true)}>
          Decide
        </Button>
      </div>
      <ReasonDialog
        title={`Decide ${request.reference}`}
        description={
          unconfirmed
            ? `The requester has not confirmed this request from their email yet: the profile of ${request.player.name} is still on the site. The requester is emailed your decision and reason.`
            : `The profile of ${request.player.name} is hidden until you decide, unless you already kept it on the site. The requester is emailed your decision and reason.`
        }
        choices={TAKEDOWN_DECISIONS}
        submitLabel="Decide"
        open={open}
        onOpenChange={setOpen}
        pending={decide.isPending}
        onSubmit={(decision, reason) =>
          decide.mutate({ id: request.id, decision, reason }, { onSuccess: () => setOpen(false) })
        }
      />
    </li>
  );
}

function ReportGroupItem({ group }: { group: ReportGroup }) {
  const [open, setOpen] = useState(false);
  const resolve = useResolveReports();
  const isNomination = group.targetType === 'nomination';
  const endorsement = group.targetType === 'endorsement' ? group.endorsement : null;
  let title = `Scout ${group.user?.name ?? `#${group.targetId}`}`;
  let link = { to: `/scout/${group.targetId}`, label: 'Open the profile' };
  let choices = PROFILE_ACTIONS;
  let target: ResolveVariables['target'] = { userId: group.targetId };
  if (isNomination) {
    title = `Nomination of ${group.nomination?.player.name ?? `#${group.targetId}`}`;
    link = { to: `/nominations/${group.targetId}`, label: 'Open the nomination' };
    choices = NOMINATION_ACTIONS;
    target = { nominationId: group.targetId };
  } else if (group.targetType === 'endorsement') {
    title = endorsement
      ? `Endorsement of ${endorsement.playerName} by ${endorsement.endorser.name}`
      : `Endorsement #${group.targetId}`;
    link = endorsement?.nominationId
      ? { to: `/nominations/${endorsement.nominationId}`, label: 'Open the player page' }
      : { to: '', label: '' };
    choices = ENDORSEMENT_ACTIONS;
    target = { endorsementId: group.targetId };
  }
  return (
    <li className="rounded-xl border border-border bg-surface p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-semibold">
            <Flag className="mr-1 inline size-4 text-destructive" aria-hidden="true" />
            {title}{' '}
            <Badge variant="red" aria-label={`${group.count} reports`}>
              {group.count}
            </Badge>
          </p>
          <p className="text-sm text-muted-foreground">
            First reported <Age since={group.firstReportedAt} />
          </p>
          {link.to && (
            <Link to={link.to} className="text-sm text-primary hover:underline">
              {link.label}
            </Link>
          )}
          {endorsement && (
            <p className="mt-2 text-sm whitespace-pre-line" dir="auto">
              {endorsement.rating != null && (
                <span className="font-medium">Rated {endorsement.rating} of 5: </span>
              )}
              {endorsement.content}
            </p>
          )}
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {group.reports.map((report) => (
              <li key={report.id}>
                <span className="font-medium">{REASON_LABELS[report.reason] ?? report.reason}</span>{' '}
                by @{report.reporter.username}
                {report.text && <span className="text-muted-foreground">: {report.text}</span>}
              </li>
            ))}
          </ul>
        </div>
        <Button size="sm" onClick={() => setOpen(true)}>
          Resolve
        </Button>
      </div>
      <ReasonDialog
        title={`Resolve reports: ${title}`}
        description="Every open report of this item is resolved with your action. The reason goes to the moderation log and to the member it affects."
        choices={choices}
        submitLabel="Resolve"
        open={open}
        onOpenChange={setOpen}
        pending={resolve.isPending}
        onSubmit={(action, reason) =>
          resolve.mutate(
            {
              target,
              action,
              reason,
            },
            { onSuccess: () => setOpen(false) },
          )
        }
      />
    </li>
  );
}

function HiddenPlayers() {
  const hidden = useHiddenNominations();
  const takedowns = useTakedowns();
  const restore = useRestorePlayer();
  const [playerId, setPlayerId] = useState<number | null>(null);
  const waiting = new Set(takedowns.data?.map((request) => request.player.id));
  const players = new Map(
    (hidden.data ?? [])
      .filter((nomination) => !waiting.has(nomination.player.id))
      .map((nomination) => [nomination.player.id, nomination]),
  );
  if (players.size === 0) return null;
  const chosen = playerId === null ? undefined : players.get(playerId);
  return (
    <section aria-labelledby="hidden-players-title" className="mt-8">
      <h2 id="hidden-players-title" className="mb-3 font-semibold">
        Taken-down players
      </h2>
      <ul className="flex flex-col gap-2">
        {[...players.values()].map((nomination) => (
          <li
            key={nomination.player.id}
            className="flex items-center justify-between gap-3 rounded-lg border border-border bg-surface px-4 py-2"
          >
            <span>{nomination.player.name}</span>
            <Button size="sm" variant="outline" onClick={() => setPlayerId(nomination.player.id)}>
              Restore
            </Button>
          </li>
        ))}
      </ul>
      <ReasonDialog
        title={`Restore ${chosen?.player.name ?? 'the player'}`}
        description="The profile and its nominations are shown again as they were."
        choices={[{ value: 'restore', label: 'Restore' }]}
        submitLabel="Restore"
        open={chosen !== undefined}
        onOpenChange={(open) => !open && setPlayerId(null)}
        pending={restore.isPending}
        onSubmit={(_choice, reason) =>
          chosen &&
          restore.mutate(
            { playerId: chosen.player.id, reason },
            { onSuccess: () => setPlayerId(null) },
          )
        }
      />
    </section>
  );
}

/** Why a takedown request was refused, in an admin's words. */
const REFUSAL_REASONS: Record<string, string> = {
  network: 'too many requests from one network',
  recipient: 'too many confirmation emails to one address',
  player: 'an address seen before, after enough confirmed requests',
  open_request: 'a request from the address waits for confirmation',
  emails_stopped: 'the address asked for no more emails',
};

function RefusedTakedowns() {
  const refusals = useTakedownRefusals();
  const rows = refusals.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="refused-takedowns-title" className="mt-8">
      <h2 id="refused-takedowns-title" className="mb-1 font-semibold">
        Refused takedown requests
      </h2>
      <p className="mb-3 text-sm text-muted-foreground">
        Requests we turned away in the last 7 days, per player and reason. Many of them about one
        player can mean someone is trying to keep a family out, or to flood an inbox.
      </p>
      <ul className="flex flex-col gap-2" aria-label="Refused takedown requests">
        {rows.map((row) => (
          <li
            key={`${row.player.id}-${row.reason}-${row.day}`}
            className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border bg-surface px-4 py-2 text-sm"
          >
            <span>
              <strong>{row.player.name}</strong>: {REFUSAL_REASONS[row.reason] ?? row.reason}
            </span>
            <span className="text-muted-foreground">
              {row.count} on {row.day}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The Reports tab: takedown requests first (a child's profile waits hidden), then reports. */
export function ReportsTab() {
  const takedowns = useTakedowns();
  const reports = useReportGroups();
  if (takedowns.isPending || reports.isPending) return <ListSkeleton />;
  const requests = takedowns.data ?? [];
  const groups = reports.data ?? [];
  return (
    <>
      {requests.length === 0 && groups.length === 0 ? (
        <ListEmpty title="Nothing to review" description="No open reports or takedown requests." />
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Open reports and takedown requests">
          {requests.map((request) => (
            <TakedownItem key={`takedown-${request.id}`} request={request} />
          ))}
          {groups.map((group) => (
            <ReportGroupItem key={`${group.targetType}-${group.targetId}`} group={group} />
          ))}
        </ul>
      )}
      <HiddenPlayers />
      <RefusedTakedowns />
    </>
  );
}
