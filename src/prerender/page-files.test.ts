import { describe, expect, it, vi } from 'vitest';
import { pageFileFor } from '../config/page-files';
import { pagesToPrerender } from './pages';

describe('pageFileFor', () => {
  it("gives each prerendered route its page, home's for / too", () => {
    expect(pageFileFor('/')).toBe('/home.html');
    expect(pageFileFor('/home')).toBe('/home.html');
    expect(pageFileFor('/settings')).toBe('/settings.html');
    expect(pageFileFor('/404')).toBe('/404.html');
    expect(pageFileFor('/admin')).toBe('/admin.html');
    expect(pageFileFor('/admin/symbols')).toBe('/admin.html');
  });

  it('gives any other path the app shell', () => {
    expect(pageFileFor('/auth/callback')).toBe('/index.html');
    expect(pageFileFor('/settings/more')).toBe('/index.html');
    expect(pageFileFor('/administrator')).toBe('/index.html');
    expect(pageFileFor('/unknown')).toBe('/index.html');
  });
});

describe('pagesToPrerender', () => {
  it('renders every page file and the app shell, hydrating only public routes', () => {
    const pages = pagesToPrerender();
    expect(pages.map((p) => p.file).sort()).toEqual(
      [
        '404.html',
        'admin.html',
        'dashboard.html',
        'home.html',
        'index.html',
        'notifications.html',
        'profile.html',
        'settings.html',
        'sign-in.html',
      ].sort(),
    );
    const hydrated = pages.filter((p) => p.render.kind === 'route').map((p) => p.file);
    expect(hydrated.sort()).toEqual(['404.html', 'dashboard.html', 'home.html', 'settings.html', 'sign-in.html']);
  });

  it('fails the build for a page file it has no render for, naming the file', async () => {
    const { PAGE_FILES } = await import('../config/page-files');
    vi.resetModules();
    vi.doMock('../config/page-files', () => ({ PAGE_FILES: { ...PAGE_FILES, 'help.html': ['/help'] } }));
    try {
      const fresh = await import('./pages');
      expect(() => fresh.pagesToPrerender()).toThrow(new Error('No prerender for help.html'));
    } finally {
      vi.doUnmock('../config/page-files');
    }
  });
});

/** The tables are built when their modules load: a fresh load sees them as the code has them. */
async function fresh() {
  vi.resetModules();
  const pageFiles = await import('../config/page-files');
  const pages = await import('./pages');
  return { ...pageFiles, ...pages };
}

describe('the prerendered pages, as loaded', () => {
  it('serves each prerendered file at the app paths it was rendered for', async () => {
    const { PAGE_FILES } = await fresh();
    expect(PAGE_FILES).toEqual({
      'home.html': ['/', '/home'],
      'settings.html': ['/settings'],
      'dashboard.html': ['/dashboard'],
      '404.html': ['/404'],
      'sign-in.html': ['/sign-in'],
      'profile.html': ['/profile'],
      'notifications.html': ['/notifications'],
      'admin.html': ['/admin', '/admin/*'],
    });
  });

  it('answers every app path a user opens with its page on a fresh load', async () => {
    const { pageFileFor } = await fresh();
    const served = [
      '/',
      '/home',
      '/settings',
      '/dashboard',
      '/404',
      '/sign-in',
      '/profile',
      '/notifications',
      '/admin',
      '/admin/accounts',
    ].map((path) => [path, pageFileFor(path)]);
    expect(served).toEqual([
      ['/', '/home.html'],
      ['/home', '/home.html'],
      ['/settings', '/settings.html'],
      ['/dashboard', '/dashboard.html'],
      ['/404', '/404.html'],
      ['/sign-in', '/sign-in.html'],
      ['/profile', '/profile.html'],
      ['/notifications', '/notifications.html'],
      ['/admin', '/admin.html'],
      ['/admin/accounts', '/admin.html'],
    ]);
  });

  it('marks the root of a hydrated page with the data-prerendered attribute', async () => {
    const { PRERENDER_ATTRIBUTE } = await fresh();
    expect(PRERENDER_ATTRIBUTE).toBe('data-prerendered');
  });

  it('renders public routes whole and the rest as their layout frame, titled', async () => {
    const { pagesToPrerender } = await fresh();
    expect(pagesToPrerender()).toEqual([
      { file: 'index.html', render: { kind: 'frame', layout: 'home', path: '/' } },
      { file: 'home.html', render: { kind: 'route', route: 'home', path: '/home' } },
      { file: 'settings.html', render: { kind: 'route', route: 'settings', path: '/settings' } },
      { file: 'dashboard.html', render: { kind: 'route', route: 'dashboard', path: '/dashboard' } },
      { file: '404.html', render: { kind: 'route', route: 'not-found', path: '/404' } },
      { file: 'sign-in.html', render: { kind: 'route', route: 'sign-in', path: '/sign-in' } },
      { file: 'profile.html', render: { kind: 'frame', layout: 'sidenav', path: '/profile', title: 'nav.profile', membersOnly: true } },
      {
        file: 'notifications.html',
        render: { kind: 'frame', layout: 'sidenav', path: '/notifications', title: 'nav.notifications', membersOnly: true },
      },
      { file: 'admin.html', render: { kind: 'frame', layout: 'admin', path: '/admin', title: 'nav.admin', membersOnly: true } },
    ]);
  });

  it("names for each hydrated page a route of the app, rendered at that route's own path", async () => {
    const { pagesToPrerender } = await fresh();
    const { routeById } = await import('../app/routes');
    for (const { file, render } of pagesToPrerender()) {
      if (render.kind !== 'route') continue;
      expect(routeById(render.route)?.path, file).toBe(render.path);
    }
  });

  it("marks a frame members only exactly when its route needs a session, so the pre-paint script's guard is the app's", async () => {
    const { pagesToPrerender } = await fresh();
    const { resolvePath } = await import('../app/resolve-route');
    const { parse } = await import('regexparam');
    for (const { file, render } of pagesToPrerender()) {
      if (render.kind !== 'frame') continue;
      const resolution = resolvePath(parse, render.path);
      const needsSession = resolution.kind === 'route' && resolution.route.requiresAuth === true;
      expect(render.membersOnly === true, file).toBe(needsSession);
    }
  });
});
