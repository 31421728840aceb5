import { describe, expect, it, vi } from 'vitest';

/**
 * The route table is built when the module loads: a fresh load sees it as the code has it, and the
 * screens it loads come from the same fresh module registry as the ones the test imports.
 */
async function freshRoutes() {
  vi.resetModules();
  return import('./routes');
}

describe('the route table, as loaded', () => {
  it('names the home and not-found paths the app redirects to', async () => {
    const { HOME_PATH, NOT_FOUND_PATH } = await freshRoutes();
    expect(HOME_PATH).toBe('/home');
    expect(NOT_FOUND_PATH).toBe('/404');
  });

  it('gives every screen its URL, breadcrumb title, layout, guards and parent', async () => {
    const { ROUTES } = await freshRoutes();
    // Only the fields a route sets: an unset flag is absent, not false.
    const described = ROUTES.map(({ load: _load, title, ...rest }) => ({
      ...rest,
      title: typeof title === 'string' ? title : 'params',
    }));
    expect(described).toEqual([
      { id: 'home', path: '/home', title: 'nav.home', layout: 'home' },
      { id: 'profile', path: '/profile', title: 'nav.profile', layout: 'sidenav', requiresAuth: true },
      { id: 'settings', path: '/settings', title: 'nav.settings', layout: 'sidenav' },
      { id: 'dashboard', path: '/dashboard', title: 'nav.dashboard', layout: 'dashboard' },
      { id: 'notifications', path: '/notifications', title: 'nav.notifications', layout: 'sidenav', requiresAuth: true },
      { id: 'admin', path: '/admin', title: 'nav.admin', layout: 'admin', requiresAuth: true },
      {
        id: 'admin-collection',
        path: '/admin/:collection',
        parent: 'admin',
        title: 'params',
        layout: 'admin',
        requiresAuth: true,
      },
      { id: 'sign-in', path: '/sign-in', title: 'nav.signIn', layout: 'home', readsQuery: true },
      { id: 'auth-callback', path: '/auth/callback', title: 'nav.signIn', layout: 'home', noPrefetch: true },
      { id: 'not-found', path: '/404', title: 'nav.notFound', layout: 'home', noPrefetch: true },
    ]);
  });

  it("titles an admin collection's breadcrumb with the collection's name", async () => {
    const { routeById } = await freshRoutes();
    const title = routeById('admin-collection')?.title;
    expect(typeof title).toBe('function');
    if (typeof title !== 'function') return;
    expect(title({ collection: 'symbols' })).toBe('symbols');
    expect(title({})).toBe('');
  });

  it('loads for each route the screen it names', async () => {
    const { routeById } = await freshRoutes();
    const screens: [string, () => Promise<{ default: unknown }>][] = [
      ['home', () => import('../features/home/HomeScreen')],
      ['profile', () => import('../profile/ProfileScreen')],
      ['settings', () => import('../features/settings/SettingsScreen')],
      ['dashboard', () => import('../features/dashboard/DashboardScreen')],
      ['notifications', () => import('../features/notifications/NotificationsScreen')],
      ['admin', () => import('../features/admin/AdminScreen')],
      ['admin-collection', () => import('../features/admin/AdminScreen')],
      ['sign-in', () => import('../features/sign-in/SignInScreen')],
      ['auth-callback', () => import('../features/sign-in/CallbackScreen')],
      ['not-found', () => import('../features/not-found/NotFoundScreen')],
    ];
    for (const [id, screen] of screens) {
      const route = routeById(id);
      expect(route, id).toBeDefined();
      const loaded = await route?.load();
      const expected = (await screen()).default;
      expect(typeof expected, id).toBe('function');
      expect(loaded?.default, id).toBe(expected);
    }
  });
});

describe('the paths the server answers with a page', () => {
  it('are every route of the app, so that only a path no route has is answered 404', async () => {
    const { ROUTES } = await freshRoutes();
    const { isAppPath } = await import('../config/page-files');
    for (const route of ROUTES) expect(isAppPath(route.path.replace(/:\w+/g, 'x')), route.path).toBe(true);
    expect(isAppPath('/')).toBe(true);
    for (const path of ['/nope', '/home/extra', '/auth', '/auth/callback/x', '/settingsx']) expect(isAppPath(path), path).toBe(false);
  });
});
