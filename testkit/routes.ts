/**
 * The app's routes as the suites visit them: each path with the heading its first screen shows to a
 * visitor signed out and to a member signed in (null: not visited that way). The e2e offline checks
 * and the Lighthouse audit walk this one table.
 */
export interface VisitedRoute {
  path: string;
  signedOut: string | null;
  signedIn: string | null;
}

const VISITED_ROUTES: readonly VisitedRoute[] = [
  { path: '/home', signedOut: 'Welcome to Circle', signedIn: 'Welcome to Circle' },
  // The screens that need a session ask for one, offline too.
  { path: '/profile', signedOut: 'Sign in', signedIn: 'Your profile' },
  { path: '/settings', signedOut: 'Settings', signedIn: 'Settings' },
  { path: '/dashboard', signedOut: 'Dashboard', signedIn: 'Dashboard' },
  // Signed in, the sign-in screen offers to sign out.
  { path: '/sign-in', signedOut: 'Sign in', signedIn: 'Sign out' },
  { path: '/admin/symbols', signedOut: 'Sign in', signedIn: null },
  { path: '/404', signedOut: 'Page not found', signedIn: 'Page not found' },
  { path: '/an/unknown/path', signedOut: 'Page not found', signedIn: null },
];

/** The routes as one kind of visitor sees them: path and heading. */
export const routesFor = (who: 'signedOut' | 'signedIn'): Array<{ path: string; heading: string }> =>
  VISITED_ROUTES.flatMap((route) => {
    const heading = route[who];
    return heading === null ? [] : [{ path: route.path, heading }];
  });
