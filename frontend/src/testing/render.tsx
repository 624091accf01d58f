import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';

import { applyLiveEvent } from '@/app/live-sync';
import { AppProviders } from '@/app/providers';
import { authKeys } from '@/features/auth/api/auth-keys';
import type { AuthUser } from '@/features/auth/api/types';
import { publishLiveEvent } from '@/lib/live/event-bus';
import type { LiveEvent } from '@/lib/live/protocol';
import { queryConfig } from '@/lib/query-client';

export const scout: AuthUser = {
  id: 1,
  username: 'jdoe',
  role: 'scout',
  name: 'Jane Doe',
  email: 'jdoe@example.com',
  favoriteSport: '',
  actsAsAdmin: false,
  avatarUrl: null,
  ageBand: 'adult',
  timeZone: '',
};
export const admin: AuthUser = {
  id: 2,
  username: 'boss',
  role: 'admin',
  name: 'Ada Admin',
  email: 'boss@example.com',
  favoriteSport: '',
  actsAsAdmin: true,
  avatarUrl: null,
  ageBand: 'adult',
  timeZone: '',
};

export type RenderOptions = {
  /** The starting URL. */
  path?: string;
  /** Seeds the session: a user, null for signed out, undefined to let the app ask the server. */
  user?: AuthUser | null;
};

let rendered: QueryClient | undefined;

/**
 * Hands a live event to the last rendered app as its socket does: the live writes take it into
 * the cache (for the signed-in reader), then the live bus tells the screens.
 */
export function deliverLiveEvent(event: LiveEvent) {
  if (!rendered) throw new Error('Render the app (renderRoutes) before delivering live events');
  const viewer = rendered.getQueryData<AuthUser | null>(authKeys.me());
  applyLiveEvent(rendered, event, { viewerId: viewer?.id });
  publishLiveEvent(event);
}

/** Renders routes in a memory router with the app's providers and a fresh query cache. */
export function renderRoutes(routes: RouteObject[], { path = '/', user }: RenderOptions = {}) {
  const queryClient = new QueryClient({ defaultOptions: queryConfig });
  rendered = queryClient;
  if (user !== undefined) queryClient.setQueryData(authKeys.me(), user);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}

/** Shows where the app navigated to. */
export function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}
