import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { DocumentTitle } from '@/components/ui/document-title';

export default function NotFoundPage() {
  return (
    <div className="flex flex-col items-center py-16 text-center">
      <DocumentTitle title="404 Page Not Found" />
      <h1 className="text-3xl font-bold tracking-tight">404 Page Not Found</h1>
      <p className="mt-3 text-muted-foreground">Did you forget to add the page to the router?</p>
      <Link to="/" className={buttonClasses({ className: 'mt-8' })}>
        Go to the dashboard
      </Link>
    </div>
  );
}
