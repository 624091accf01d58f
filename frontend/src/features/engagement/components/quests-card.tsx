import { CheckCircle2, Target } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

import { useQuests, useUpdateEngagementSetting } from '../api/engagement';
import type { Quest } from '../api/types';

function ends(expiresAt: string | null | undefined) {
  if (!expiresAt) return null;
  return `Ends ${new Date(expiresAt).toLocaleString(undefined, {
    weekday: 'short',
    hour: 'numeric',
    minute: '2-digit',
  })}`;
}

function QuestRow({ quest }: { quest: Quest }) {
  const label = `${quest.name}: ${quest.progress} of ${quest.target}`;
  return (
    <li className="py-3 first:pt-0 last:pb-0" data-testid={`quest-${quest.type}`}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="flex items-center gap-1.5 text-sm font-medium">
            {quest.completed && (
              <CheckCircle2 className="size-4 text-success" aria-label="Completed" />
            )}
            {quest.name}
          </p>
          <p className="text-xs text-muted-foreground">{quest.description}</p>
        </div>
        <span className="shrink-0 text-sm tabular-nums" data-testid="quest-progress">
          {quest.progress}/{quest.target}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={quest.target}
        aria-valuenow={quest.progress}
        className="mt-2 h-1.5 overflow-hidden rounded-full bg-muted"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width]"
          style={{ width: `${Math.round((100 * quest.progress) / Math.max(quest.target, 1))}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-muted-foreground">
        +{quest.pointsReward} points{ends(quest.expiresAt) ? ` · ${ends(quest.expiresAt)}` : ''}
      </p>
    </li>
  );
}

/**
 * The home dashboard's quests, for adult members only: the page passes `adult` from the
 * session's age band, and the server answers 403 to any other account (a claimant athlete, a
 * player's), which shows nothing. Quests are opt-in: until the member turns them on the card
 * only offers to.
 */
export function QuestsCard({ adult }: { adult: boolean }) {
  const { data, isPending, isError } = useQuests(adult);
  const update = useUpdateEngagementSetting();
  if (!adult || isError) return null;
  return (
    <Card role="region" aria-labelledby="quests-title" className="mt-8">
      <CardHeader>
        <CardTitle level={2} id="quests-title" className="flex items-center gap-2">
          <Target className="size-5" aria-hidden="true" />
          Quests
        </CardTitle>
        <CardDescription>
          Small challenges that point your votes where they are needed. Optional, and you can turn
          them off in Settings.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : !data.enabled ? (
          <Button
            size="sm"
            onClick={() => update.mutate({ field: 'quests', value: true })}
            disabled={update.isPending}
          >
            Turn on quests
          </Button>
        ) : (
          <ul className="divide-y divide-border">
            {data.quests.map((quest) => (
              <QuestRow key={quest.type} quest={quest} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
