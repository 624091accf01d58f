import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { DocumentTitle } from '@/components/ui/document-title';

const OFFLINE_TITLE = "You're offline; live updates resume when you're back";

/** A request that never reached the server: fetch rejects with a TypeError, not an answer. */
function isNetworkFailure(error: unknown): boolean {
  return !navigator.onLine || (error instanceof TypeError && /fetch/i.test(error.message));
}

/**
 * Shown when a page throws, or when its code or data cannot be loaded (for example after a
 * deploy, or with no network while the service worker opened the shell).
 */
export function RouteError() {
  const error = useRouteError();
  const offline = isNetworkFailure(error);
  // A page that failed for want of a network loads again by itself once the browser is back
  // online (the Reload button does the same at once).
  useEffect(() => {
    if (!offline) return undefined;
    const reload = () => window.location.reload();
    window.addEventListener('online', reload);
    return () => window.removeEventListener('online', reload);
  }, [offline]);
  const title = offline ? OFFLINE_TITLE : 'Something went wrong';
  const detail = offline
    ? 'This page needs a connection. Check your network, then reload.'
    : isRouteErrorResponse(error)
      ? `${error.status} ${error.statusText}`
      : error instanceof Error
        ? error.message
        : null;
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-3 p-6 text-center">
      <DocumentTitle title={offline ? 'Offline' : title} />
      <h1 className="text-2xl font-bold">{title}</h1>
      {detail && <p className="max-w-md text-sm text-muted-foreground">{detail}</p>}
      <div className="mt-4 flex gap-2">
        <button type="button" className={buttonClasses()} onClick={() => window.location.reload()}>
          Reload the page
        </button>
        <Link to="/" reloadDocument className={buttonClasses({ variant: 'outline' })}>
          Go home
        </Link>
      </div>
    </div>
  );
}
