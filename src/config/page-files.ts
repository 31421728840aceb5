/**
 * Which prerendered HTML file answers which app path: the server, the service worker and the build
 * read it here. A path not listed gets index.html, the app shell.
 */
export const PAGE_FILES: Readonly<Record<string, readonly string[]>> = {
  'home.html': ['/', '/home'],
  'settings.html': ['/settings'],
  'dashboard.html': ['/dashboard'],
  '404.html': ['/404'],
  'sign-in.html': ['/sign-in'],
  'profile.html': ['/profile'],
  'notifications.html': ['/notifications'],
  'admin.html': ['/admin', '/admin/*'],
};

/** The attribute on `<div id="root">` naming the route a page was prerendered for (app/hydration.ts). */
export const PRERENDER_ATTRIBUTE = 'data-prerendered';

/**
 * The attribute on `<html>` of a page only a signed-in member sees: the pre-paint script sends a
 * visitor signed out on to sign-in before it paints (src/pre-paint.ts).
 */
export const MEMBERS_ONLY_ATTRIBUTE = 'data-members-only';

/** The page a navigation to `pathname` gets: its own, or index.html for any other app path. */
export function pageFileFor(pathname: string): string {
  for (const [file, paths] of Object.entries(PAGE_FILES)) {
    for (const path of paths) {
      if (path === pathname || (path.endsWith('/*') && pathname.startsWith(path.slice(0, -1)))) return `/${file}`;
    }
  }
  return '/index.html';
}

/** App paths with no page of their own: the app shell (index.html) answers them. */
export const SHELL_PATHS: readonly string[] = ['/auth/callback'];

/**
 * Whether a path is one of the app's (a page of its own, or the shell's): any other is not found,
 * and the server answers it 404 with the not-found page, at the address asked for.
 */
export function isAppPath(pathname: string): boolean {
  return SHELL_PATHS.includes(pathname) || pageFileFor(pathname) !== '/index.html';
}
