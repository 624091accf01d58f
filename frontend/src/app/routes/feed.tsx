import { Compass, LogIn, Rss } from 'lucide-react';
import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { DocumentTitle } from '@/components/ui/document-title';
import { PageHeader } from '@/components/ui/page-header';
import { PageSpinner } from '@/components/ui/spinner';
import { withReturnTo } from '@/features/auth/hooks/use-return-to';
import { useUser } from '@/features/auth/hooks/use-user';
import { subscribeLiveEvents } from '@/lib/live/event-bus';
import { FeedView } from '@/features/social/components/feed-view';
import type { ActivitySubscription } from '@/features/social/hooks/use-live-activities';

/** The feed hears of new activity from the live socket, once the cache has taken it in. */
const subscribeToActivity: ActivitySubscription = (onActivity) =>
  subscribeLiveEvents('activity.created', (event) => onActivity(event.data, event.sport));

function SignInPrompt() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center rounded-2xl border border-border bg-surface px-6 py-12 text-center shadow-sm">
      <DocumentTitle title="Activity Feed" />
      <span className="flex size-14 items-center justify-center rounded-full bg-primary-soft text-primary">
        <Rss className="size-7" aria-hidden="true" />
      </span>
      <h1 className="mt-4 text-2xl font-bold">Sign in to see the feed</h1>
      <p className="mt-2 text-muted-foreground">
        Follow what scouts in your sport are nominating and voting for, as it happens.
      </p>
      <Link
        to={withReturnTo('/login', '/feed')}
        className={buttonClasses({ size: 'lg', className: 'mt-6' })}
      >
        <LogIn aria-hidden="true" />
        Sign in
      </Link>
    </div>
  );
}

export default function FeedPage() {
  const { user, isPending, error } = useUser();
  if (isPending) return <PageSpinner label="Checking your session" />;
  if (error) throw error;
  if (!user) return <SignInPrompt />;

  return (
    <>
      <PageHeader
        title="Activity Feed"
        description="What the community is nominating, voting for and following, live."
        actions={
          <Link to="/discover" className={buttonClasses({ variant: 'outline' })}>
            <Compass aria-hidden="true" />
            Discover Scouts
          </Link>
        }
      />
      <FeedView viewerId={user.id} subscribe={subscribeToActivity} />
    </>
  );
}
