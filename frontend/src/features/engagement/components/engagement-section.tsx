import { Copy, Gift, Target } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/stores/toast';

import { useEngagementSettings, useReferrals, useUpdateEngagementSetting } from '../api/engagement';
import type { EngagementSettings, Referrals } from '../api/types';

const REASONS: Record<string, string> = {
  not_adult: 'not an adult account',
  flagged: 'flagged by the integrity checks',
  same_network: 'joined from your network',
  inactive: 'not active enough',
  monthly_cap: 'past this month’s limit',
  referrer_ineligible: 'your account cannot earn referrals',
};

function Toggle({
  id,
  label,
  description,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  description: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <div className="flex items-start justify-between gap-4 py-4 first:pt-0 last:pb-0">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-description`} className="mt-0.5 text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch
        id={id}
        checked={checked}
        onCheckedChange={onChange}
        aria-describedby={`${id}-description`}
      />
    </div>
  );
}

function Switches({ settings }: { settings: EngagementSettings }) {
  const update = useUpdateEngagementSetting();
  return (
    <div className="divide-y divide-border">
      <Toggle
        id="setting-quests"
        label="Quests"
        description="Show quests on your dashboard and earn points for completing them."
        checked={settings.quests}
        onChange={(value) => update.mutate({ field: 'quests', value })}
      />
      <Toggle
        id="setting-showStreak"
        label="Show my streak on my profile"
        description="Your streak is private unless you turn this on."
        checked={settings.showStreak}
        onChange={(value) => update.mutate({ field: 'showStreak', value })}
      />
    </div>
  );
}

function ReferralLink({ referrals }: { referrals: Referrals }) {
  const url = new URL(referrals.link, window.location.origin).href;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied', description: url });
    } catch {
      toast({ variant: 'destructive', description: `Could not copy the link: ${url}` });
    }
  };
  return (
    <div className="mt-5 border-t border-border pt-5">
      <h3 className="flex items-center gap-2 text-sm font-medium">
        <Gift className="size-4" aria-hidden="true" />
        Invite a friend
      </h3>
      <p className="mt-0.5 text-sm text-muted-foreground">
        You earn {referrals.pointsPerReferral} points when someone who joined with your link has
        been a member for a week and active on 3 different days (at most {referrals.monthlyCap} a
        month).
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code className="rounded bg-muted px-2 py-1 text-sm" data-testid="referral-code">
          {referrals.code}
        </code>
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          <Copy className="size-4" aria-hidden="true" />
          Copy link
        </Button>
      </div>
      {referrals.referred.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm">
          {referrals.referred.map((referred) => (
            <li key={`${referred.name}-${referred.joinedAt}`}>
              {referred.name}:{' '}
              {referred.state === 'waiting'
                ? 'waiting to qualify'
                : referred.state === 'rewarded'
                  ? 'rewarded'
                  : `not rewarded (${REASONS[referred.reason] ?? referred.reason})`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Settings' quests, streak and referral link, for adult members only: the page passes `adult`
 * from the session's age band; the server answers 403 to any other account, which shows
 * nothing.
 */
export function EngagementSection({ adult }: { adult: boolean }) {
  const settings = useEngagementSettings(adult);
  const referrals = useReferrals(adult);
  if (!adult || !settings.data) return null;
  return (
    <Card role="region" aria-labelledby="engagement-title" className="mt-6">
      <CardHeader>
        <CardTitle level={2} id="engagement-title" className="flex items-center gap-2">
          <Target className="size-5" aria-hidden="true" />
          Quests, streak and invitations
        </CardTitle>
        <CardDescription>
          Optional reasons to come back. Nothing here is sent at night.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Switches settings={settings.data} />
        {referrals.data && <ReferralLink referrals={referrals.data} />}
      </CardContent>
    </Card>
  );
}
