import type { LayoutKind } from '../app/routes';
import type { FirstKey } from '../i18n/en';
import { PAGE_FILES } from '../config/page-files.ts';

/**
 * How the build renders each page of page-files.ts. `route`: a public route, rendered by the whole
 * app for a visitor signed out, that the browser hydrates. `frame`: a layout with its loading state
 * that the app renders over: the members' routes (`membersOnly`: a visitor signed out is sent on to
 * sign-in before the page paints, so the frame is only ever a member's) and index.html, the shell
 * of every other path.
 */
export type PageRender =
  | { kind: 'route'; route: string; path: string }
  | { kind: 'frame'; layout: LayoutKind; path: string; title?: FirstKey; membersOnly?: true };

const RENDERS: Readonly<Record<string, PageRender>> = {
  'home.html': { kind: 'route', route: 'home', path: '/home' },
  'settings.html': { kind: 'route', route: 'settings', path: '/settings' },
  'dashboard.html': { kind: 'route', route: 'dashboard', path: '/dashboard' },
  '404.html': { kind: 'route', route: 'not-found', path: '/404' },
  'sign-in.html': { kind: 'route', route: 'sign-in', path: '/sign-in' },
  'profile.html': { kind: 'frame', layout: 'sidenav', path: '/profile', title: 'nav.profile', membersOnly: true },
  'notifications.html': { kind: 'frame', layout: 'sidenav', path: '/notifications', title: 'nav.notifications', membersOnly: true },
  'admin.html': { kind: 'frame', layout: 'admin', path: '/admin', title: 'nav.admin', membersOnly: true },
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
