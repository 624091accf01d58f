import { BadgeCheck, BadgeX, Check, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useReviewer, useWatchNomination } from '@/lib/live/presence';
import { cn } from '@/lib/utils';

import { useApproveNomination, useRejectNomination } from '../api/decide-nomination';
import { useSetPlayerVerified } from '../api/set-verified';
import type { DecidedMark, PendingItem, Player } from '../api/types';

import { NominationSummary } from './nomination-summary';
import { ReasonDialog } from './reason-dialog';

export type RenderEditPlayer = (player: Player) => ReactNode;

function markText({ action, by }: DecidedMark) {
  const verb = action === 'approved' ? 'Approved' : 'Rejected';
  return by ? `${verb} by ${by.name}` : verb;
}

/**
 * One pending nomination with its moderation actions. An item another admin just decided stays
 * a moment, greyed, with who decided it, and takes no more actions.
 */
export function PendingRow({
  item,
  renderEditPlayer,
}: {
  item: PendingItem;
  renderEditPlayer?: RenderEditPlayer;
}) {
  const approve = useApproveNomination();
  const reject = useRejectNomination();
  const verify = useSetPlayerVerified();
  const [rejecting, setRejecting] = useState(false);
  const busy = approve.isPending || reject.isPending;
  const { decided } = item;
  // Deciding (the reject dialog open) counts as reviewing; other admins see who does.
  useWatchNomination(rejecting && !decided ? item.id : null);
  const reviewer = useReviewer(item.id);

  return (
    <li aria-label={item.player.name} aria-disabled={decided ? true : undefined}>
      <Card
        className={cn(
          'flex flex-col gap-4 p-5 transition-opacity duration-500 lg:flex-row lg:items-center lg:justify-between',
          decided && 'bg-muted/60 opacity-60',
        )}
      >
        <NominationSummary nomination={item} />
        {reviewer && !decided ? (
          <Badge variant="secondary" className="self-start lg:self-center" role="status">
            being reviewed by {reviewer}
          </Badge>
        ) : null}
        {decided ? (
          <Badge
            variant={decided.action === 'approved' ? 'green' : 'red'}
            className="self-start px-3 py-1 text-sm lg:self-center"
            role="status"
          >
            {markText(decided)}
          </Badge>
        ) : (
          <div className="flex flex-wrap gap-2 lg:justify-end">
            <Button
              size="sm"
              variant="secondary"
              className="bg-success hover:bg-success/90"
              loading={approve.isPending}
              disabled={busy}
              onClick={() => approve.mutate(item.id)}
            >
              {!approve.isPending && <Check aria-hidden="true" />}
              Approve
            </Button>
            <Button
              size="sm"
              variant="destructive"
              disabled={busy}
              onClick={() => setRejecting(true)}
            >
              <X aria-hidden="true" />
              Reject
            </Button>
            <Button
              size="sm"
              variant="outline"
              loading={verify.isPending}
              onClick={() =>
                verify.mutate({ playerId: item.player.id, verified: !item.player.verified })
              }
            >
              {!verify.isPending &&
                (item.player.verified ? (
                  <BadgeX aria-hidden="true" />
                ) : (
                  <BadgeCheck aria-hidden="true" />
                ))}
              {item.player.verified ? 'Remove Verification' : 'Verify Player'}
            </Button>
            {renderEditPlayer?.(item.player)}
          </div>
        )}
      </Card>
      <ReasonDialog
        title="Reject Nomination"
        description={`Reject the nomination of ${item.player.name}. The nominator is notified, with your reason if you give one.`}
        choices={[{ value: 'reject', label: 'Reject' }]}
        submitLabel="Reject"
        submitVariant="destructive"
        reasonRequired={false}
        placeholder="Why is this nomination rejected?"
        open={rejecting && !decided}
        onOpenChange={setRejecting}
        pending={reject.isPending}
        onSubmit={(_choice, reason) =>
          reject.mutate({ id: item.id, reason }, { onSettled: () => setRejecting(false) })
        }
      />
    </li>
  );
}
