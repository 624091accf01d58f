import { format } from 'date-fns';
import { BadgeX, Check, MailCheck, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

import {
  useCoachVerifications,
  useDecideCoach,
  type AdminCoachVerification,
  type CoachDecision,
} from '../api/coaches';

const ACTION_LABELS: Record<CoachDecision, string> = {
  approve: 'Approve coach',
  reject: 'Reject request',
  withdraw: 'Withdraw badge',
};

function Evidence({ item }: { item: AdminCoachVerification }) {
  return (
    <dl className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
      <div>
        <dt className="inline text-muted-foreground">Member: </dt>
        <dd className="inline">
          <Link to={`/scout/${item.user.id}`} className="underline">
            {item.user.name} (@{item.user.username})
          </Link>
        </dd>
      </div>
      <div>
        <dt className="inline text-muted-foreground">Role: </dt>
        <dd className="inline" dir="auto">
          {item.roleTitle}
        </dd>
      </div>
      <div className="sm:col-span-2">
        <dt className="inline text-muted-foreground">Roster or staff page: </dt>
        <dd className="inline break-all">
          {item.evidenceUrl ? (
            <a
              href={item.evidenceUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="underline"
            >
              {item.evidenceUrl}
            </a>
          ) : (
            '—'
          )}
        </dd>
      </div>
      <div className="sm:col-span-2">
        <dt className="inline text-muted-foreground">Work email: </dt>
        <dd className="inline break-all">
          {item.workEmail || '—'}
          {item.workEmail &&
            (item.emailConfirmed ? (
              <span className="ml-2 inline-flex items-center gap-1 text-success">
                <MailCheck className="size-3.5" aria-hidden="true" />
                confirmed
              </span>
            ) : (
              <span className="ml-2 text-muted-foreground">not confirmed yet</span>
            ))}
        </dd>
      </div>
      {item.status === 'approved' && (
        <div>
          <dt className="inline text-muted-foreground">Endorsements: </dt>
          <dd className="inline">{item.endorsements}</dd>
        </div>
      )}
    </dl>
  );
}

function CoachRow({ item, actions }: { item: AdminCoachVerification; actions: CoachDecision[] }) {
  const [reason, setReason] = useState('');
  const decide = useDecideCoach();
  const when = item.status === 'pending' ? item.createdAt : (item.decidedAt ?? item.createdAt);
  return (
    <li
      className="rounded-xl border border-border bg-surface p-4 shadow-sm"
      aria-label={`Coach verification of ${item.user.name}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold" dir="auto">
          {item.organization}
        </h3>
        <p className="text-xs text-muted-foreground">
          {format(new Date(when), 'd MMM yyyy, HH:mm')}
        </p>
      </div>
      <Evidence item={item} />
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Input
          aria-label={`Reason for ${item.user.name} (optional)`}
          placeholder="Reason (optional)"
          maxLength={500}
          className="max-w-xs"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        {actions.map((action) => (
          <Button
            key={action}
            size="sm"
            variant={action === 'approve' ? 'primary' : 'outline'}
            disabled={decide.isPending}
            onClick={() => decide.mutate({ id: item.id, action, reason: reason.trim() })}
          >
            {action === 'approve' && <Check aria-hidden="true" />}
            {action === 'reject' && <X aria-hidden="true" />}
            {action === 'withdraw' && <BadgeX aria-hidden="true" />}
            {ACTION_LABELS[action]}
          </Button>
        ))}
      </div>
    </li>
  );
}

function CoachList({
  status,
  actions,
  empty,
}: {
  status: 'pending' | 'approved';
  actions: CoachDecision[];
  empty: string;
}) {
  const list = useCoachVerifications(status);
  if (list.isPending) return <p className="py-4 text-sm text-muted-foreground">Loading…</p>;
  if (list.isError)
    return <p className="py-4 text-sm text-destructive">Could not load the coach verifications.</p>;
  if (list.data.length === 0) return <p className="py-4 text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className="mt-2 flex flex-col gap-3">
      {list.data.map((item) => (
        <CoachRow key={item.id} item={item} actions={actions} />
      ))}
    </ul>
  );
}

/**
 * The Coaches tab: requests to be a verified coach with their evidence (approve or reject with
 * a reason), and the verified coaches (withdraw a badge); live across admins.
 */
export function CoachesTab() {
  return (
    <div className="mt-4 flex flex-col gap-6">
      <section aria-labelledby="coaches-pending">
        <h2 id="coaches-pending" className="text-base font-semibold">
          Waiting for a decision
        </h2>
        <CoachList status="pending" actions={['approve', 'reject']} empty="No requests waiting." />
      </section>
      <section aria-labelledby="coaches-verified">
        <h2 id="coaches-verified" className="text-base font-semibold">
          Verified coaches
        </h2>
        <CoachList status="approved" actions={['withdraw']} empty="No verified coaches yet." />
      </section>
    </div>
  );
}
