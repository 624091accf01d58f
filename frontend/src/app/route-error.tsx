import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { DocumentTitle } from '@/components/ui/document-title';

/** Shown when a page throws, or when its code cannot be loaded (for example after a deploy). */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-3 p-6 text-center">
      <DocumentTitle title="Something went wrong" />
      <h1 className="text-2xl font-bold">Something went wrong</h1>
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
