import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { Toaster } from '@/components/ui/toaster';
import { queryClient as appQueryClient } from '@/lib/query-client';

import { LiveUpdates } from './live-updates';

export function AppProviders({
  children,
  queryClient = appQueryClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <LiveUpdates />
      <Toaster />
    </QueryClientProvider>
  );
}
