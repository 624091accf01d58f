import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';

import { PageSpinner } from '@/components/ui/spinner';
import { BirthYearStep } from '@/features/auth/components/birth-year-step';
import { useBirthYearNeeded } from '@/features/auth/hooks/use-birth-year-needed';

import { Footer } from './footer';
import { Header } from './header';
import { OfflineBanner } from './offline-banner';

export function RootLayout() {
  // An account from before years of birth were asked answers that one question first.
  const birthYearNeeded = useBirthYearNeeded();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-surface focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <Header />
      <OfflineBanner />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 lg:px-8">
        {birthYearNeeded ? (
          <BirthYearStep />
        ) : (
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
