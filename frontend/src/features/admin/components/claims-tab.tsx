import { format } from 'date-fns';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

import { useClaimsQueue, useDecideClaim, type AdminClaim } from '../api/claims';

const RELATIONSHIP_LABELS: Record<string, string> = {
  self: 'The athlete',
  parent_or_guardian: 'A parent or guardian',
};

function ClaimRow({ claim }: { claim: AdminClaim }) {
  const [reason, setReason] = useState('');
  const decide = useDecideClaim();
  const nominators = claim.nominatedBy.map((user) => `${user.name} (@${user.username})`);
  return (
    <li
      className="rounded-xl border border-border bg-surface p-4 shadow-sm"
      aria-label={`Claim of ${claim.player.name}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">{claim.player.name}</h3>
        <p className="text-xs text-muted-foreground">
          {format(new Date(claim.createdAt), 'd MMM yyyy, HH:mm')}
        </p>
      </div>
      <dl className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-muted-foreground">Claimant: </dt>
          <dd className="inline">
            <Link to={`/scout/${claim.claimant.id}`} className="underline">
              {claim.claimant.name} (@{claim.claimant.username})
            </Link>
          </dd>
        </div>
        <div>
          <dt className="inline text-muted-foreground">Relationship: </dt>
          <dd className="inline">
            {RELATIONSHIP_LABELS[claim.relationship] ?? claim.relationship}
          </dd>
        </div>
        <div>
          <dt className="inline text-muted-foreground">Year of birth: </dt>
          <dd className="inline">{claim.birthYear}</dd>
        </div>
        <div>
          <dt className="inline text-muted-foreground">Nominated by: </dt>
          <dd className="inline">{nominators.join(', ') || '—'}</dd>
        </div>
        {claim.contactPhone && (
          <div>
            <dt className="inline text-muted-foreground">Phone: </dt>
            <dd className="inline">{claim.contactPhone}</dd>
          </div>
        )}
      </dl>
      <p className="mt-2 text-sm whitespace-pre-wrap" dir="auto">
        <span className="text-muted-foreground">Evidence: </span>
        {claim.evidence}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Input
          aria-label={`Reason for the claim of ${claim.player.name} (optional)`}
          placeholder="Reason (optional)"
          maxLength={500}
          className="max-w-xs"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        <Button
          size="sm"
          disabled={decide.isPending}
          onClick={() => decide.mutate({ id: claim.id, action: 'approve', reason: reason.trim() })}
        >
          <Check aria-hidden="true" />
          Approve claim
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={decide.isPending}
          onClick={() => decide.mutate({ id: claim.id, action: 'reject', reason: reason.trim() })}
        >
          <X aria-hidden="true" />
          Reject claim
        </Button>
      </div>
    </li>
  );
}

/** The Claims tab: pending claims with their evidence, the player and its nominators; live. */
export function ClaimsTab() {
  const queue = useClaimsQueue();
  if (queue.isPending) return <p className="py-6 text-sm text-muted-foreground">Loading claims…</p>;
  if (queue.isError)
    return <p className="py-6 text-sm text-destructive">Could not load the claims.</p>;
  if (queue.data.length === 0) {
    return <p className="py-6 text-sm text-muted-foreground">No claims waiting.</p>;
  }
  return (
    <ul className="mt-4 flex flex-col gap-3">
      {queue.data.map((claim) => (
        <ClaimRow key={claim.id} claim={claim} />
      ))}
    </ul>
  );
}
