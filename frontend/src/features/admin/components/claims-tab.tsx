import { format } from 'date-fns';
import { ArrowRightLeft, Check, Undo2, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { ActionDialog } from '@/components/ui/action-dialog';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';

import {
  useChangeHeldClaim,
  useClaimsQueue,
  useDecideClaim,
  useHeldClaims,
  type AdminClaim,
} from '../api/claims';
import { ReasonDialog } from './reason-dialog';

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

type Relationship = 'self' | 'parent_or_guardian';

/** An approved claim: who manages the player now, and the admin's transfer and revoke. */
function HeldClaimRow({ claim }: { claim: AdminClaim }) {
  const change = useChangeHeldClaim();
  const [transferring, setTransferring] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const [username, setUsername] = useState('');
  const [relationship, setRelationship] = useState<Relationship>('parent_or_guardian');
  const [reason, setReason] = useState('');
  const player = claim.player.name;
  const closeTransfer = (open: boolean) => {
    if (!open) {
      setUsername('');
      setReason('');
      setRelationship('parent_or_guardian');
    }
    setTransferring(open);
  };
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-border bg-surface p-4 shadow-sm"
      aria-label={`Managed profile of ${player}`}
    >
      <div className="text-sm">
        <p className="font-semibold">{player}</p>
        <p className="text-muted-foreground">
          {RELATIONSHIP_LABELS[claim.relationship] ?? claim.relationship}:{' '}
          <Link to={`/scout/${claim.claimant.id}`} className="underline">
            {claim.claimant.name} (@{claim.claimant.username})
          </Link>
          {claim.decidedAt && ` since ${format(new Date(claim.decidedAt), 'd MMM yyyy')}`}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <ActionDialog
          open={transferring}
          onOpenChange={closeTransfer}
          trigger={
            <Button size="sm" variant="outline">
              <ArrowRightLeft aria-hidden="true" />
              Transfer claim
            </Button>
          }
          title={`Transfer the profile of ${player}`}
          description="The member you name manages the profile from now on, with its settings as they are. Both are told."
          actionLabel="Transfer claim"
          actionDisabled={!username.trim()}
          pending={change.isPending}
          onAction={() =>
            change.mutate(
              {
                action: 'transfer',
                id: claim.id,
                username: username.trim().replace(/^@/, ''),
                relationship,
                reason: reason.trim(),
              },
              { onSuccess: () => closeTransfer(false) },
            )
          }
        >
          <div className="flex flex-col gap-3">
            <Field id={`transfer-username-${claim.id}`} label="Username of the new claimant">
              <Input
                id={`transfer-username-${claim.id}`}
                maxLength={150}
                value={username}
                onChange={(event) => setUsername(event.target.value)}
              />
            </Field>
            <Field id={`transfer-relationship-${claim.id}`} label="Relationship">
              <NativeSelect
                id={`transfer-relationship-${claim.id}`}
                value={relationship}
                onChange={(event) => setRelationship(event.target.value as Relationship)}
              >
                <option value="parent_or_guardian">A parent or guardian</option>
                <option value="self">The athlete (16 or over)</option>
              </NativeSelect>
            </Field>
            <Field id={`transfer-reason-${claim.id}`} label="Reason (optional)">
              <Input
                id={`transfer-reason-${claim.id}`}
                maxLength={500}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
              />
            </Field>
          </div>
        </ActionDialog>
        <Button size="sm" variant="outline" onClick={() => setRevoking(true)}>
          <Undo2 aria-hidden="true" />
          Revoke claim
        </Button>
        <ReasonDialog
          title={`Revoke the claim of ${player}?`}
          description="No one manages the profile then; its settings stay until a new claim is approved. The claimant is told."
          choices={[{ value: 'revoke', label: 'Revoke' }]}
          submitLabel="Revoke claim"
          submitVariant="destructive"
          reasonRequired={false}
          open={revoking}
          onOpenChange={setRevoking}
          pending={change.isPending}
          onSubmit={(_choice, why) =>
            change.mutate(
              { action: 'revoke', id: claim.id, reason: why },
              { onSuccess: () => setRevoking(false) },
            )
          }
        />
      </div>
    </li>
  );
}

function HeldClaims() {
  const held = useHeldClaims();
  return (
    <section aria-labelledby="held-claims" className="mt-8">
      <h2 id="held-claims" className="text-lg font-semibold">
        Managed profiles
      </h2>
      <p className="text-sm text-muted-foreground">
        A claimed profile answers every other claim with “already claimed” until you transfer or
        revoke its claim.
      </p>
      {held.isPending && <p className="py-4 text-sm text-muted-foreground">Loading…</p>}
      {held.isError && (
        <p className="py-4 text-sm text-destructive">Could not load the managed profiles.</p>
      )}
      {held.data?.length === 0 && (
        <p className="py-4 text-sm text-muted-foreground">No managed profiles.</p>
      )}
      {held.data && held.data.length > 0 && (
        <ul className="mt-3 flex flex-col gap-3">
          {held.data.map((claim) => (
            <HeldClaimRow key={claim.id} claim={claim} />
          ))}
        </ul>
      )}
    </section>
  );
}

function PendingClaims() {
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

/**
 * The Claims tab: pending claims with their evidence, the player and its nominators (live), and
 * the managed profiles, whose claims an admin transfers or revokes.
 */
export function ClaimsTab() {
  return (
    <>
      <PendingClaims />
      <HeldClaims />
    </>
  );
}
