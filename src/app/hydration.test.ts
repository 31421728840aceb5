import { describe, expect, it } from 'vitest';
import { canHydrate, firstRouteAt, readPrerenderMark, type ClientState } from './hydration';

const firstVisit: ClientState = {
  path: '/home',
  search: '',
  language: 'en',
  theme: 'INDIGO_PINK',
  colorScheme: 'system',
  signedIn: false,
  online: true,
  installed: false,
  installable: false,
};
const home = { route: 'home', language: 'en', theme: 'INDIGO_PINK', colorScheme: 'system' };

describe('firstRouteAt', () => {
  it('names the route a path renders at once', () => {
    expect(firstRouteAt('/home', false)).toBe('home');
    expect(firstRouteAt('/settings', false)).toBe('settings');
    expect(firstRouteAt('/admin/symbols', true)).toBe('admin-collection');
  });

  it('is null where the first render redirects: /, a guarded route signed out', () => {
    expect(firstRouteAt('/', false)).toBeNull();
    expect(firstRouteAt('/profile', false)).toBeNull();
    expect(firstRouteAt('/profile', true)).toBe('profile');
  });

  it('is the not-found screen at an unknown path: the server answers it with that page, which hydrates', () => {
    expect(firstRouteAt('/no/such/page', false)).toBe('not-found');
  });
});

describe('canHydrate', () => {
  it('hydrates the page of a first visit: same route, language, signed out, online', () => {
    expect(canHydrate(home, firstVisit)).toBe(true);
    expect(canHydrate({ ...home, route: 'settings' }, { ...firstVisit, path: '/settings' })).toBe(true);
  });

  it('renders afresh whenever the first render would differ from the HTML', () => {
    expect(canHydrate(null, firstVisit)).toBe(false);
    expect(canHydrate(home, { ...firstVisit, language: 'fr' })).toBe(false);
    expect(canHydrate(home, { ...firstVisit, theme: 'PURPLE_GREEN' })).toBe(false);
    expect(canHydrate(home, { ...firstVisit, colorScheme: 'dark' })).toBe(false);
    expect(canHydrate(home, { ...firstVisit, signedIn: true })).toBe(false);
    expect(canHydrate(home, { ...firstVisit, online: false })).toBe(false);
    expect(canHydrate(home, { ...firstVisit, installed: true })).toBe(false);
    expect(canHydrate(home, { ...firstVisit, installable: true })).toBe(false);
    // The worker answers every path with one page: another route's markup is never hydrated.
    expect(canHydrate(home, { ...firstVisit, path: '/settings' })).toBe(false);
    expect(canHydrate(home, { ...firstVisit, path: '/' })).toBe(false);
  });

  it('hydrates a screen that reads the query only without one (the page was prerendered without one)', () => {
    const signIn = { ...home, route: 'sign-in' };
    expect(canHydrate(signIn, { ...firstVisit, path: '/sign-in' })).toBe(true);
    expect(canHydrate(signIn, { ...firstVisit, path: '/sign-in', search: '?next=%2Fprofile' })).toBe(false);
    // A screen that does not read it hydrates whatever the query.
    expect(canHydrate(home, { ...firstVisit, search: '?from=mail' })).toBe(true);
  });
});

describe('readPrerenderMark', () => {
  const page = (rootAttributes: string, inner: string, lang: string | null = 'en') => {
    const html = document.createElement('html');
    html.setAttribute('data-prerender-theme', 'INDIGO_PINK');
    html.setAttribute('data-prerender-color-scheme', 'system');
    if (lang) html.setAttribute('data-prerender-lang', lang);
    html.innerHTML = `<body><div id="root" ${rootAttributes}>${inner}</div></body>`;
    return { root: html.querySelector<HTMLElement>('#root')!, html };
  };

  it('reads the route from #root and the language from <html>', () => {
    const { root, html } = page('data-prerendered="dashboard"', '<div class="app"></div>');
    expect(readPrerenderMark(root, html)).toEqual({ route: 'dashboard', language: 'en', theme: 'INDIGO_PINK', colorScheme: 'system' });
  });

  it('is null for a frame, an emptied root or a page without its language', () => {
    expect(readPrerenderMark(page('', '<div></div>').root, page('', '').html)).toBeNull();
    const emptied = page('data-prerendered="home"', '');
    expect(readPrerenderMark(emptied.root, emptied.html)).toBeNull();
    const noLanguage = page('data-prerendered="home"', '<div></div>', null);
    expect(readPrerenderMark(noLanguage.root, noLanguage.html)).toBeNull();
    // A page from before the colour scheme could be chosen does not say which one its settings show.
    const noScheme = page('data-prerendered="home"', '<div></div>');
    noScheme.html.removeAttribute('data-prerender-color-scheme');
    expect(readPrerenderMark(noScheme.root, noScheme.html)).toBeNull();
  });
});
