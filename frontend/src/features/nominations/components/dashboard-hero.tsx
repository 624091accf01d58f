import { Plus } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { useSport } from '@/stores/sport';

import { NominatePlayerDialog } from './nominate-player-dialog';

/** The dashboard's welcome, with the Nominate Player button. */
export function DashboardHero({ name }: { name?: string }) {
  const { option } = useSport();
  const Icon = option.icon;
  return (
    <section className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-primary via-primary to-purple px-6 py-10 text-primary-foreground shadow-lg sm:px-10 sm:py-12">
      <Icon
        className="pointer-events-none absolute -right-6 -bottom-8 size-48 opacity-10 sm:size-64"
        aria-hidden="true"
      />
      <p className="text-sm font-semibold tracking-wide text-white/80 uppercase">
        {option.label} · Community scouting
      </p>
      <h1 className="mt-2 max-w-2xl text-3xl font-extrabold tracking-tight sm:text-4xl">
        {name ? `Welcome back, ${name.split(' ')[0]}` : 'Discover the next generation'}
      </h1>
      <p className="mt-3 max-w-xl text-base text-white/85 sm:text-lg">
        Spot a young athlete with a future? Nominate them, rally votes and watch them climb the
        leaderboard.
      </p>
      <NominatePlayerDialog
        trigger={
          <Button size="lg" variant="secondary" className="mt-6">
            <Plus aria-hidden="true" />
            Nominate Player
          </Button>
        }
      />
    </section>
  );
}
