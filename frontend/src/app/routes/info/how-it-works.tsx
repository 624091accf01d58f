import {
  BarChart3,
  Medal,
  ThumbsUp,
  UserPlus,
  UserRoundSearch,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { APP_NAME } from '@/lib/site';

type Step = { title: string; body: string; icon: LucideIcon };

const steps: Step[] = [
  {
    title: 'Create your account',
    body: 'Sign up for free in under a minute and pick your favorite sport. You can switch sports any time from the selector in the navigation bar.',
    icon: UserPlus,
  },
  {
    title: 'Nominate athletes',
    body: "Spotted a promising young player? Nominate them with their position, age or graduation year, club, nationality, skills and a highlight video. Athletes can't nominate themselves: discovery comes from the community.",
    icon: UserRoundSearch,
  },
  {
    title: 'Vote',
    body: 'Back the athletes you believe in. Every member has one vote per nomination, and you can take your vote back whenever you change your mind.',
    icon: ThumbsUp,
  },
  {
    title: 'Track results',
    body: 'Follow the leaderboards for top players and top scouts in your sport. Vote counts and rankings update live as the community votes.',
    icon: BarChart3,
  },
  {
    title: 'Build your reputation',
    body: 'Earn points for nominating, for voting and when admins approve your nominations. Great picks climb the scout leaderboard and earn you followers.',
    icon: Medal,
  },
];

export default function HowItWorksPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="How It Works"
        description={`${APP_NAME} turns the whole community into a scouting network. Here is how to take part in five steps.`}
      />
      <ol className="flex flex-col gap-4">
        {steps.map(({ title, body, icon: Icon }, index) => (
          <li key={title}>
            <Card className="flex gap-4 p-5 sm:p-6">
              <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground">
                {index + 1}
              </span>
              <div>
                <h2 className="flex items-center gap-2 text-lg font-semibold">
                  <Icon className="size-5 text-primary" aria-hidden="true" />
                  {title}
                </h2>
                <p className="mt-1 text-muted-foreground">{body}</p>
              </div>
            </Card>
          </li>
        ))}
      </ol>
      <div className="mt-10 rounded-xl bg-primary p-8 text-center text-primary-foreground">
        <h2 className="text-2xl font-bold">Ready to start scouting?</h2>
        <p className="mt-2 opacity-90">It is free, and your first nomination takes two minutes.</p>
        <Link
          to="/register"
          className={buttonClasses({
            variant: 'outline',
            size: 'lg',
            className: 'mt-6 border-transparent text-primary',
          })}
        >
          Create Free Account
        </Link>
      </div>
    </div>
  );
}
