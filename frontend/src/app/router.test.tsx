import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { authKeys } from '@/features/auth/api/auth-keys';
import { useSportStore } from '@/stores/sport';
import { mockFetch } from '@/testing/fetch-mock';
import { admin, renderRoutes, scout, type RenderOptions } from '@/testing/render';

import { routes } from './router';

const renderApp = (path: string, user?: RenderOptions['user']) =>
  renderRoutes(routes, { path, user });

const locationOf = (router: ReturnType<typeof renderApp>['router']) =>
  `${router.state.location.pathname}${router.state.location.search}`;

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('routes', () => {
  it('shows the not-found page for unknown paths; the footer links lead to real pages', async () => {
    mockFetch({});
    const { router } = renderApp('/no/such/page', null);
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument();

    await router.navigate('/privacy');
    expect(await screen.findByRole('heading', { name: 'Privacy Policy' })).toBeInTheDocument();
    expect(screen.getByText(/many of them are minors/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a takedown' })).toHaveAttribute(
      'href',
      '/takedown',
    );
    await router.navigate('/terms');
    expect(await screen.findByRole('heading', { name: 'Terms of Service' })).toBeInTheDocument();
    await router.navigate('/sports');
    expect(await screen.findByRole('heading', { name: 'Sports', level: 1 })).toBeInTheDocument();
  });

  it('sends signed-out visitors of a member page to login with returnTo', async () => {
    mockFetch({});
    const { router } = renderApp('/vote?tab=voted', null);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/login?returnTo=%2Fvote%3Ftab%3Dvoted');
  });

  it('treats a session without a user as signed out, asking no /api/auth/me', async () => {
    const fetched = mockFetch({ 'GET /api/auth/session': { body: { user: null } } });
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/login?returnTo=%2F');
    expect(screen.queryByRole('button', { name: /^Open user menu/ })).not.toBeInTheDocument();
    expect(fetched.requests.some((r) => r.url === '/api/auth/session')).toBe(true);
    expect(fetched.requests.some((r) => r.url === '/api/auth/me')).toBe(false);
  });

  it('renders member pages for a signed-in user', async () => {
    mockFetch({});
    renderApp('/nominations/needing-votes', scout);
    expect(
      await screen.findByRole('heading', { name: 'Nominations Needing Votes' }),
    ).toBeInTheDocument();
  });

  it('keeps a signed-in page when reading the session again fails', async () => {
    // The server restarting while the session is read again (after the socket said it
    // changed): the user already known stays signed in; no error page, no reload needed.
    const fetched = mockFetch({ 'GET /api/auth/session': { status: 503, body: 'restarting' } });
    const { queryClient } = renderApp('/nominations/needing-votes', scout);
    expect(
      await screen.findByRole('heading', { name: 'Nominations Needing Votes' }),
    ).toBeInTheDocument();
    await act(() => queryClient.invalidateQueries({ queryKey: authKeys.me() }));
    expect(fetched.requests.some((r) => r.url === '/api/auth/session')).toBe(true);
    expect(queryClient.getQueryState(authKeys.me())?.status).toBe('error');
    expect(screen.getByRole('heading', { name: 'Nominations Needing Votes' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });

  it('keeps the admin dashboard when reading the session again fails', async () => {
    mockFetch({ 'GET /api/auth/session': { status: 503, body: 'restarting' } });
    const { queryClient } = renderApp('/admin/dashboard', admin);
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    await act(() => queryClient.invalidateQueries({ queryKey: authKeys.me() }));
    expect(queryClient.getQueryState(authKeys.me())?.status).toBe('error');
    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });

  it('redirects /admin to /admin/dashboard', async () => {
    mockFetch({});
    const { router } = renderApp('/admin', admin);
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/admin/dashboard');
  });

  it('turns a signed-out visitor away from the admin dashboard', async () => {
    mockFetch({});
    const { router } = renderApp('/admin/dashboard', null);
    expect(await screen.findByText('Authentication Required')).toBeInTheDocument();
    expect(screen.getByText('Please sign in to access the admin dashboard.')).toBeInTheDocument();
    await waitFor(() => expect(locationOf(router)).toBe('/login?returnTo=%2Fadmin%2Fdashboard'));
  });

  it('turns a non-admin away from the admin dashboard', async () => {
    mockFetch({});
    const { router } = renderApp('/admin/dashboard', scout);
    expect(await screen.findByText('Access Denied')).toBeInTheDocument();
    expect(
      screen.getByText('You do not have permission to access the admin dashboard.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(locationOf(router)).toBe('/'));
  });
});

describe('header', () => {
  const mainNav = () => screen.getByRole('navigation', { name: 'Main' });
  const linkNames = (nav: HTMLElement) =>
    within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);

  it('shows the public links and a Sign in button when signed out', async () => {
    mockFetch({});
    renderApp('/about', null);
    await screen.findByRole('heading', { name: /About/ });
    expect(linkNames(mainNav())).toEqual(['Dashboard', 'Nominations', 'Vote', 'Leaderboard']);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it('adds Feed for members and Admin for admins', async () => {
    mockFetch({});
    const { unmount } = renderApp('/about', scout);
    await screen.findByRole('heading', { name: /About/ });
    expect(linkNames(mainNav())).toEqual([
      'Dashboard',
      'Nominations',
      'Vote',
      'Leaderboard',
      'Feed',
    ]);
    unmount();

    renderApp('/about', admin);
    await screen.findByRole('heading', { name: /About/ });
    expect(within(mainNav()).getByRole('link', { name: 'Admin' })).toHaveAttribute(
      'href',
      '/admin/dashboard',
    );
  });

  it('shows the Admin tag and Back to Main Site on admin pages, without the sport selector', async () => {
    mockFetch({});
    renderApp('/admin/dashboard', admin);
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    const banner = screen.getByRole('banner');
    expect(within(banner).getByText('Admin')).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: /Back to Main Site/ })).toHaveAttribute(
      'href',
      '/',
    );
    expect(within(banner).queryByRole('button', { name: /Change sport/ })).not.toBeInTheDocument();
    expect(within(banner).queryByRole('button', { name: 'Open menu' })).not.toBeInTheDocument();
  });

  it('has a mobile menu with the links and the sport buttons', async () => {
    mockFetch({});
    renderApp('/about', scout);
    await screen.findByRole('heading', { name: /About/ });
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));

    const mobile = screen.getByRole('navigation', { name: 'Mobile' });
    expect(linkNames(mobile)).toEqual(['Dashboard', 'Nominations', 'Vote', 'Leaderboard', 'Feed']);
    await userEvent.click(within(mobile).getByRole('button', { name: 'Hockey' }));
    expect(useSportStore.getState().sport).toBe('hockey');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
  });

  it('switches sport from the desktop selector', async () => {
    mockFetch({});
    renderApp('/about', scout);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Sport: Football. Change sport' }),
    );
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Soccer' }));
    expect(useSportStore.getState().sport).toBe('soccer');
    expect(screen.getByRole('button', { name: 'Sport: Soccer. Change sport' })).toBeInTheDocument();
  });

  it('opens the user menu and signs out', async () => {
    const { requests } = mockFetch({ 'POST /api/auth/logout': { status: 204 } });
    const { router, queryClient } = renderApp('/about', { ...scout, email: 'jane@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: /^Open user menu/ }));

    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Jane Doe')).toBeInTheDocument();
    expect(within(menu).getByText('jane@example.com')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Your Profile' })).toHaveAttribute(
      'href',
      '/profile',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Sign out' }));

    await waitFor(() => expect(locationOf(router)).toBe('/login'));
    // The header's notification bell reads its list; the only write is the logout.
    expect(requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/auth/logout',
    ]);
    expect(queryClient.getQueryData(['auth', 'me'])).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Open user menu/ })).not.toBeInTheDocument();
  });

  it('tells the user when signing out fails', async () => {
    mockFetch({ 'POST /api/auth/logout': { status: 500 } });
    const { router } = renderApp('/about', scout);
    await userEvent.click(await screen.findByRole('button', { name: /^Open user menu/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByText('Failed to log out. Please try again.')).toBeInTheDocument();
    expect(locationOf(router)).toBe('/about');
  });
});

describe('footer', () => {
  it('links resources, legal pages and contact, and names the five sports', async () => {
    mockFetch({});
    renderApp('/about', null);
    await screen.findByRole('heading', { name: /About/ });
    const footer = screen.getByRole('contentinfo');
    for (const [name, href] of [
      ['How It Works', '/how-it-works'],
      ['Help Center', '/help'],
      ['About', '/about'],
      ['Contact', '/contact'],
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['Sports', '/sports'],
      ['support@scoutvote.example', 'mailto:support@scoutvote.example'],
    ]) {
      expect(within(footer).getByRole('link', { name })).toHaveAttribute('href', href);
    }
    const sports = within(footer).getByRole('list', { name: 'Sports' });
    expect(
      within(sports)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Football', 'Basketball', 'Baseball', 'Soccer', 'Hockey']);
    expect(within(footer).getByText(/All rights reserved/)).toBeInTheDocument();
  });
});

describe('static pages', () => {
  it('How It Works has five steps and a Create Free Account button', async () => {
    mockFetch({});
    renderApp('/how-it-works', null);
    await screen.findByRole('heading', { name: 'How It Works', level: 1 });
    const steps = within(screen.getByRole('main')).getAllByRole('listitem');
    expect(steps.map((step) => within(step).getByRole('heading').textContent)).toEqual([
      'Create your account',
      'Nominate athletes',
      'Vote',
      'Track results',
      'Build your reputation',
    ]);
    expect(screen.getByRole('link', { name: 'Create Free Account' })).toHaveAttribute(
      'href',
      '/register',
    );
  });

  it('Help Center has ten questions and a Contact Support part', async () => {
    mockFetch({});
    const { container } = renderApp('/help', null);
    await screen.findByRole('heading', { name: 'Help Center', level: 1 });
    expect(container.querySelectorAll('main details')).toHaveLength(10);
    expect(screen.getByText(/starts as pending/)).toBeInTheDocument();
    expect(screen.getByText(/One vote per user per nomination/)).toBeInTheDocument();
    expect(screen.getByText(/cannot be edited after submission/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Contact Support' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'How It Works' })).toHaveAttribute(
      'href',
      '/how-it-works',
    );
    expect(within(main).getByRole('link', { name: 'Contact Us' })).toHaveAttribute(
      'href',
      '/contact',
    );
  });

  it('Contact Us states the response times', async () => {
    mockFetch({});
    renderApp('/contact', null);
    await screen.findByRole('heading', { name: 'Contact Us', level: 1 });
    expect(screen.getByText('24-48 hours')).toBeInTheDocument();
    expect(screen.getByText('12-24 hours')).toBeInTheDocument();
    expect(screen.getByText('2-3 business days')).toBeInTheDocument();
  });

  it('About links to registration', async () => {
    mockFetch({});
    renderApp('/about', null);
    await screen.findByRole('heading', { name: /About/, level: 1 });
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register');
  });
});
