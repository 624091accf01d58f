import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';

import { PageSpinner } from '@/components/ui/spinner';
import { RequireAdmin } from '@/features/auth/components/require-admin';
import { RequireAuth } from '@/features/auth/components/require-auth';

import { RootLayout } from './layout/root-layout';
import { RouteError } from './route-error';

// Every page is its own chunk: the initial bundle holds only the shell.
const HomePage = lazy(() => import('./routes/home'));
const LoginPage = lazy(() => import('./routes/auth/login'));
const RegisterPage = lazy(() => import('./routes/auth/register'));
const NominationsPage = lazy(() => import('./routes/nominations/list'));
const NominationDetailPage = lazy(() => import('./routes/nominations/detail'));
const NeedingVotesPage = lazy(() => import('./routes/nominations/needing-votes'));
const VotePage = lazy(() => import('./routes/vote'));
const ResultsPage = lazy(() => import('./routes/results'));
const FeedPage = lazy(() => import('./routes/feed'));
const AdminDashboardPage = lazy(() => import('./routes/admin/dashboard'));
const AboutPage = lazy(() => import('./routes/info/about'));
const HowItWorksPage = lazy(() => import('./routes/info/how-it-works'));
const HelpPage = lazy(() => import('./routes/info/help'));
const ContactPage = lazy(() => import('./routes/info/contact'));
const PrivacyPage = lazy(() => import('./routes/info/privacy'));
const TermsPage = lazy(() => import('./routes/info/terms'));
const SportsPage = lazy(() => import('./routes/info/sports'));
const ProfilePage = lazy(() => import('./routes/profile'));
const SettingsPage = lazy(() => import('./routes/settings'));
const DiscoverPage = lazy(() => import('./routes/scouts/discover'));
const ScoutPage = lazy(() => import('./routes/scouts/scout'));
const ClubPage = lazy(() => import('./routes/clubs/club'));
const WallPage = lazy(() => import('./routes/wall'));
const TakedownPage = lazy(() => import('./routes/takedown'));
const TakedownConfirmPage = lazy(() => import('./routes/takedown-confirm'));
const TakedownStopEmailsPage = lazy(() => import('./routes/takedown-stop-emails'));
const CoachConfirmEmailPage = lazy(() => import('./routes/coach-confirm-email'));
const NotFoundPage = lazy(() => import('./routes/not-found'));

const signedIn = (Page: ComponentType): ReactNode => (
  <RequireAuth>
    <Page />
  </RequireAuth>
);

/**
 * Public: the auth, static and not-found pages, plus /feed and /profile, which show their own
 * signed-out message, /clubs/:id, which the server answers with the public's view signed out,
 * and /admin, which has its own toasts. Every other page needs sign-in.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: signedIn(HomePage) },
      { path: 'login', element: <LoginPage /> },
      { path: 'register', element: <RegisterPage /> },
      { path: 'nominations', element: signedIn(NominationsPage) },
      { path: 'nominations/needing-votes', element: signedIn(NeedingVotesPage) },
      { path: 'nominations/:id', element: signedIn(NominationDetailPage) },
      { path: 'vote', element: signedIn(VotePage) },
      { path: 'results', element: signedIn(ResultsPage) },
      { path: 'feed', element: <FeedPage /> },
      { path: 'admin', element: <Navigate to="/admin/dashboard" replace /> },
      {
        path: 'admin/dashboard',
        element: (
          <RequireAdmin>
            <AdminDashboardPage />
          </RequireAdmin>
        ),
      },
      { path: 'about', element: <AboutPage /> },
      { path: 'how-it-works', element: <HowItWorksPage /> },
      { path: 'help', element: <HelpPage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'privacy', element: <PrivacyPage /> },
      { path: 'terms', element: <TermsPage /> },
      { path: 'sports', element: <SportsPage /> },
      { path: 'takedown', element: <TakedownPage /> },
      { path: 'takedown/confirm', element: <TakedownConfirmPage /> },
      { path: 'takedown/stop-emails', element: <TakedownStopEmailsPage /> },
      { path: 'coach/confirm-email', element: <CoachConfirmEmailPage /> },
      { path: 'profile', element: <ProfilePage /> },
      { path: 'settings', element: signedIn(SettingsPage) },
      { path: 'discover', element: signedIn(DiscoverPage) },
      { path: 'scout/:id', element: signedIn(ScoutPage) },
      { path: 'clubs/:id', element: <ClubPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    // The wall runs full-screen on a TV, without the site's header and footer.
    path: '/wall',
    errorElement: <RouteError />,
    element: (
      <RequireAuth>
        <Suspense fallback={<PageSpinner />}>
          <WallPage />
        </Suspense>
      </RequireAuth>
    ),
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
