import { Trophy, Users, Vote } from 'lucide-react';
import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { APP_NAME } from '@/lib/site';
import { SPORTS } from '@/stores/sport';

const pillars = [
  {
    title: 'Discovery by the community',
    body: 'Scouts, coaches, parents and fans know the talent in their towns. Anyone can nominate a promising young athlete; no one needs an agent or a big club to be seen.',
    icon: Users,
  },
  {
    title: 'Recognition through votes',
    body: 'Every member votes on nominations. Votes move players up the leaderboards, so the athletes the community believes in rise to the top.',
    icon: Vote,
  },
  {
    title: 'Leaderboards for players and scouts',
    body: 'Top Players celebrates the most-backed athletes; Top Scouts celebrates the members with the sharpest eye for talent.',
    icon: Trophy,
  },
];

export default function AboutPage() {
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={`About ${APP_NAME}`}
        description="Our mission: community-powered discovery of young athletes."
      />
      <section className="text-lg leading-relaxed text-muted-foreground">
        <p>
          Talent is everywhere, but attention is not. {APP_NAME} lets a whole community scout
          together: members nominate promising young athletes, vote for the ones they believe in,
          and follow their progress, across five sports.
        </p>
        <ul aria-label="Sports" className="mt-6 flex flex-wrap gap-2">
          {SPORTS.map(({ value, label, icon: Icon }) => (
            <li
              key={value}
              className="inline-flex items-center gap-2 rounded-full bg-primary-soft px-4 py-2 text-base font-semibold text-primary"
            >
              <Icon className="size-5" aria-hidden="true" />
              {label}
            </li>
          ))}
        </ul>
      </section>
      <div className="mt-10 grid gap-4 md:grid-cols-3">
        {pillars.map(({ title, body, icon: Icon }) => (
          <Card key={title} className="p-6">
            <Icon className="size-8 text-purple" aria-hidden="true" />
            <h2 className="mt-3 text-lg font-semibold">{title}</h2>
            <p className="mt-2 text-sm text-muted-foreground">{body}</p>
          </Card>
        ))}
      </div>
      <div className="mt-10 flex flex-col items-center gap-3 text-center">
        <p className="text-lg font-medium">Free for everyone. Join the community today.</p>
        <Link to="/register" className={buttonClasses({ size: 'lg' })}>
          Get Started
        </Link>
      </div>
    </div>
  );
}
