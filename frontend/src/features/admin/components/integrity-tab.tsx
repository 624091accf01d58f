import { Fragment, useState } from 'react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { humanHours } from '@/lib/display';

import { useIntegrityFlags, useNominationVoters, useVoteSelection } from '../api/integrity';
import type { IntegrityFlag } from '../api/types';

import { Age } from './age';
import { ListEmpty, ListSkeleton } from './list-states';
import { ReasonDialog } from './reason-dialog';

const RULE_LABELS: Record<IntegrityFlag['rule'], string> = {
  shared_prefix: 'One network, many accounts',
  one_nominator: 'Votes for one nominator',
  new_account_burst: 'Burst of new accounts',
  reciprocal: 'Reciprocal voting',
};

type Pending = { flag: IntegrityFlag; action: 'void' | 'restore' };

/** Who voted for a flagged nomination: account age, IP cluster (never the address), trust. */
function Voters({ nominationId }: { nominationId: number }) {
  const voters = useNominationVoters(nominationId);
  if (voters.isPending) return <p className="text-muted-foreground">Loading voters…</p>;
  return (
    <table className="mt-2 w-full text-left text-xs">
      <thead>
        <tr>
          <th scope="col">Voter</th>
          <th scope="col">Voted</th>
          <th scope="col">Account age</th>
          <th scope="col">Cluster</th>
          <th scope="col">Counts</th>
        </tr>
      </thead>
      <tbody>
        {(voters.data ?? []).map((vote) => (
          <tr key={vote.id}>
            <td>
              <Link
                to={`/scout/${vote.voterId}`}
                className="text-primary underline underline-offset-2"
              >
                {vote.voterName}
              </Link>{' '}
              (@{vote.voterUsername})
            </td>
            <td>
              <Age since={vote.votedAt} />
            </td>
            <td>{humanHours(vote.accountAgeHours)}</td>
            <td className="font-mono">{vote.clusterId || '—'}</td>
            <td>{vote.status === 'void' ? 'voided' : vote.trusted ? 'yes' : 'raw count only'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The flagged accounts, each a link to its page (where an admin sees every profile). */
function AccountLinks({ ids }: { ids: number[] }) {
  return ids.map((id, index) => (
    <Fragment key={id}>
      {index > 0 && ', '}
      <Link
        to={`/scout/${id}`}
        aria-label={`Account #${id}`}
        className="font-medium text-primary underline underline-offset-2"
      >
        #{id}
      </Link>
    </Fragment>
  ));
}

function VotersDisclosure({ nominationId }: { nominationId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="mt-2" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-primary">Voters</summary>
      {open && <Voters nominationId={nominationId} />}
    </details>
  );
}

/**
 * Vote-integrity flags, live: what the detection found on each vote, in words, and a voiding
 * (or its undo) with a required reason that goes to the moderation log.
 */
export function IntegrityTab() {
  const flags = useIntegrityFlags();
  const voidVotes = useVoteSelection('void');
  const restoreVotes = useVoteSelection('restore');
  const [pending, setPending] = useState<Pending | null>(null);
  const mutation = pending?.action === 'restore' ? restoreVotes : voidVotes;

  if (flags.isPending) return <ListSkeleton />;
  const items = flags.data ?? [];
  if (items.length === 0) {
    return (
      <ListEmpty
        title="No flags"
        description="Suspicious voting patterns appear here as the votes come in."
      />
    );
  }

  return (
    <>
      <ul className="flex flex-col gap-2" aria-label="Integrity flags">
        {items.map((flag) => (
          <li
            key={flag.id}
            className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-border bg-surface px-4 py-3 text-sm"
            aria-label={`Flag ${flag.id}: ${RULE_LABELS[flag.rule]}`}
          >
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">{RULE_LABELS[flag.rule]}</span>
                <Badge variant={flag.status === 'open' ? 'yellow' : 'neutral'}>
                  {flag.status === 'open' ? 'Open' : 'Voided'}
                </Badge>
                {flag.playerName && <span className="font-medium">{flag.playerName}</span>}
              </p>
              <p className="mt-1">{flag.explanation}</p>
              <p className="mt-1 text-muted-foreground">
                Accounts: <AccountLinks ids={flag.accounts} /> · updated{' '}
                <Age since={flag.updatedAt} />
              </p>
              {flag.nominationId !== null && flag.nominationId !== undefined && (
                <VotersDisclosure nominationId={flag.nominationId} />
              )}
            </div>
            {flag.status === 'open' ? (
              <Button
                variant="destructive"
                size="sm"
                onClick={() => setPending({ flag, action: 'void' })}
              >
                Void votes
              </Button>
            ) : (
              <Button
                variant="outline"
                size="sm"
                onClick={() => setPending({ flag, action: 'restore' })}
              >
                Restore votes
              </Button>
            )}
          </li>
        ))}
      </ul>
      <ReasonDialog
        key={pending ? `${pending.flag.id}-${pending.action}` : 'closed'}
        title={pending?.action === 'restore' ? 'Restore these votes?' : 'Void these votes?'}
        description={
          pending?.action === 'restore'
            ? 'They count again on every board and in points, exactly as before.'
            : 'They leave the counts, boards and points on every screen. The votes are kept, so this can be undone.'
        }
        choices={[{ value: pending?.action ?? 'void', label: '' }]}
        submitLabel={pending?.action === 'restore' ? 'Restore votes' : 'Void votes'}
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        pending={mutation.isPending}
        onSubmit={(_, reason) => {
          if (!pending) return;
          mutation.mutate(
            { flagId: pending.flag.id, reason },
            { onSuccess: () => setPending(null) },
          );
        }}
      />
    </>
  );
}
