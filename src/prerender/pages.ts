import type { LayoutKind } from '../app/routes';
import type { FirstKey } from '../i18n/en';
import { PAGE_FILES } from '../config/page-files.ts';

/**
 * How the build renders each page of page-files.ts. `route`: a public route, rendered by the whole
 * app, that the browser hydrates. `frame`: a layout with its loading state that the app renders
 * over: the routes that need a session (their first screen depends on it), sign-in (its text names
 * the provider's host, known only in the browser) and index.html, the shell of every other path.
 */
export type PageRender =
  | { kind: 'route'; route: string; path: string }
  | { kind: 'frame'; layout: LayoutKind; path: string; title?: FirstKey };

const RENDERS: Readonly<Record<string, PageRender>> = {
  'home.html': { kind: 'route', route: 'home', path: '/home' },
  'settings.html': { kind: 'route', route: 'settings', path: '/settings' },
  'dashboard.html': { kind: 'route', route: 'dashboard', path: '/dashboard' },
  '404.html': { kind: 'route', route: 'not-found', path: '/404' },
  'sign-in.html': { kind: 'frame', layout: 'home', path: '/sign-in', title: 'nav.signIn' },
  'profile.html': { kind: 'frame', layout: 'sidenav', path: '/profile', title: 'nav.profile' },
  'notifications.html': { kind: 'frame', layout: 'sidenav', path: '/notifications', title: 'nav.notifications' },
  'admin.html': { kind: 'frame', layout: 'admin', path: '/admin', title: 'nav.admin' },
  'index.html': { kind: 'frame', layout: 'home', path: '/' },
};

/** Every page to write, index.html included; a page file without a render fails the build. */
export function pagesToPrerender(): { file: string; render: PageRender }[] {
  return ['index.html', ...Object.keys(PAGE_FILES)].map((file) => {
    const render = RENDERS[file];
    if (!render) throw new Error(`No prerender for ${file}`);
    return { file, render };
  });
}
