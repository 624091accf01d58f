import type { ReactNode } from 'react';

import { Card } from '@/components/ui/card';
import { DocumentTitle } from '@/components/ui/document-title';

/** The centred card the login and register pages share. */
export function AuthPageShell({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <div className="flex justify-center py-4 sm:py-10">
      <DocumentTitle title={title} />
      <Card className="w-full max-w-md p-6 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <p className="mt-1 mb-6 text-sm text-muted-foreground">{subtitle}</p>
        {children}
      </Card>
    </div>
  );
}
