import { format } from 'date-fns';
import { RotateCcw, UserRoundCheck } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';

import {
  useAcceptControls,
  useManagedPlayers,
  useRemoveProfile,
  type ManagedPlayer,
} from '../api/claims';

function ManagedRow({ player }: { player: ManagedPlayer }) {
  const profile = useRemoveProfile(player.playerId);
  const accept = useAcceptControls(player.playerId);
  const restorable = player.restorable;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="text-sm">
        <p className="font-medium">
          {player.nominationId != null ? (
            <Link to={`/nominations/${player.nominationId}`} className="underline">
              {player.name}
            </Link>
          ) : (
            player.name
          )}
        </p>
        <p className="text-xs text-muted-foreground">
          {player.invited
            ? 'Your family invites you to manage your own profile.'
            : player.removedAt != null
              ? restorable && player.restoreUntil != null
                ? `Removed. You can bring it back until ${format(new Date(player.restoreUntil), 'd MMM yyyy')}.`
                : 'Removed. It can no longer be brought back.'
              : player.managedBy === 'athlete'
                ? 'Managed by you (the athlete).'
                : "Managed by you (the athlete's family)."}
        </p>
      </div>
      {player.invited ? (
        <Button size="sm" loading={accept.isPending} onClick={() => accept.mutate()}>
          <UserRoundCheck aria-hidden="true" />
          Accept the controls
        </Button>
      ) : (
        restorable && (
          <Button
            size="sm"
            variant="outline"
            loading={profile.isPending}
            onClick={() => profile.mutate('restore')}
          >
            <RotateCcw aria-hidden="true" />
            Bring the profile back
          </Button>
        )
      )}
    </li>
  );
}

/**
 * Settings: the profiles the member manages (a removed one is brought back here, since its page
 * is gone), and the ones their family invited them to take. Nothing for everyone else.
 */
export function ManagedProfilesSection() {
  const managed = useManagedPlayers();
  if (!managed.data || managed.data.length === 0) return null;
  return (
    <section
      aria-labelledby="managed-profiles-title"
      className="rounded-xl border border-border bg-surface p-6"
    >
      <h2 id="managed-profiles-title" className="text-lg font-semibold">
        Profiles you manage
      </h2>
      <ul className="mt-2 divide-y divide-border">
        {managed.data.map((player) => (
          <ManagedRow key={player.playerId} player={player} />
        ))}
      </ul>
    </section>
  );
}
