import { ArrowLeft, Menu, X } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';

import { Brand } from '@/components/brand';
import { ConnectionIndicator } from '@/components/connection-indicator';
import { SportButtons, SportMenu } from '@/components/sport-selector';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button-classes';
import { useUser } from '@/features/auth/hooks/use-user';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { cn } from '@/lib/utils';

import { navItems } from './nav-links';
import { UserMenu } from './user-menu';

export function Header() {
  // undefined while the session is read, and when its first read failed (no network): whether
  // anyone is signed in is not known then, and the header offers no "Sign in" to a member.
  const { user } = useUser();
  const signedOut = user === null;
  const { pathname } = useLocation();
  const [openPath, setOpenPath] = useState<string | null>(null);
  const isAdminPage = pathname === '/admin' || pathname.startsWith('/admin/');
  const items = navItems(user);
  // The mobile menu belongs to the page it was opened on: navigating closes it.
  const mobileOpen = openPath === pathname;
  const closeMobile = () => setOpenPath(null);

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-surface/90 backdrop-blur supports-[backdrop-filter]:bg-surface/75">
      <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-3 px-4 sm:px-6 lg:px-8">
        <Brand />
        {isAdminPage && <Badge variant="purple">Admin</Badge>}

        {!isAdminPage && (
          <nav aria-label="Main" className="ml-4 hidden items-center gap-1 lg:flex">
            {items.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.end}
                className={({ isActive }) =>
                  cn(
                    'rounded-md px-3 py-2 text-sm font-medium transition-colors',
                    isActive
                      ? 'bg-primary-soft text-primary'
                      : 'text-muted-foreground hover:bg-muted hover:text-foreground',
                  )
                }
              >
                {item.label}
              </NavLink>
            ))}
          </nav>
        )}

        <div className="ml-auto flex items-center gap-2 sm:gap-3">
          {isAdminPage ? (
            <Link to="/" className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
              <ArrowLeft aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Back to Main Site</span>
            </Link>
          ) : (
            <SportMenu className="hidden lg:inline-flex" />
          )}
          {user && <ConnectionIndicator labelClassName="sr-only sm:not-sr-only" />}
          {user && <NotificationBell />}
          {user ? (
            <UserMenu user={user} />
          ) : (
            signedOut &&
            pathname !== '/login' && (
              <Link to="/login" className={buttonClasses({ size: 'sm' })}>
                Sign in
              </Link>
            )
          )}
          {!isAdminPage && (
            <button
              type="button"
              className={cn(buttonClasses({ variant: 'ghost', size: 'icon' }), 'lg:hidden')}
              aria-label={mobileOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={mobileOpen}
              aria-controls="mobile-menu"
              onClick={() => setOpenPath(mobileOpen ? null : pathname)}
            >
              {mobileOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
            </button>
          )}
        </div>
      </div>

      {!isAdminPage && mobileOpen && (
        <div id="mobile-menu" className="border-t border-border bg-surface lg:hidden">
          <nav
            aria-label="Mobile"
            className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3 sm:px-6"
          >
            {items.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.end}
                onClick={closeMobile}
                className={({ isActive }) =>
                  cn(
                    'rounded-md px-3 py-2.5 text-base font-medium',
                    isActive ? 'bg-primary-soft text-primary' : 'text-foreground hover:bg-muted',
                  )
                }
              >
                {item.label}
              </NavLink>
            ))}
            <p className="mt-3 mb-1 px-1 text-xs font-semibold text-muted-foreground uppercase">
              Sport
            </p>
            <SportButtons onSelect={closeMobile} />
          </nav>
        </div>
      )}
    </header>
  );
}
