import { parse } from 'regexparam';
import { resolvePath } from './resolve-route';
import { routeById } from './routes';
import { PRERENDER_ATTRIBUTE } from '../config/page-files';

/** What the build rendered into a page: the route, in which language, theme and colour scheme, for a visitor signed out. */
export interface PrerenderMark {
  route: string;
  language: string;
  theme: string;
  colorScheme: string;
}

export function readPrerenderMark(root: HTMLElement, html: HTMLElement = document.documentElement): PrerenderMark | null {
  const route = root.getAttribute(PRERENDER_ATTRIBUTE);
  const language = html.getAttribute('data-prerender-lang');
  const theme = html.getAttribute('data-prerender-theme');
  const colorScheme = html.getAttribute('data-prerender-color-scheme');
  return route && language && theme && colorScheme && root.firstElementChild ? { route, language, theme, colorScheme } : null;
}

/** What the first render will show, as far as the prerendered HTML could differ. */
export interface ClientState {
  path: string;
  /** The URL's query (`?next=…`), which some first renders read. */
  search: string;
  language: string;
  /** The theme and the colour scheme show in the settings screen's checked options. */
  theme: string;
  colorScheme: string;
  signedIn: boolean;
  online: boolean;
  installed: boolean;
  /** The browser offered installation already: home's first render has the offer, the HTML has not. */
  installable: boolean;
}

/** The route a path renders at once, or null when it first redirects (home from /, a guard, a 404). */
export function firstRouteAt(path: string, signedIn: boolean): string | null {
  const resolution = resolvePath(parse, path);
  if (resolution.kind === 'redirect') return null;
  if (resolution.route.requiresAuth && !signedIn) return null;
  return resolution.route.id;
}

/**
 * Hydrate only when the first render makes exactly the prerendered HTML: the same route, language,
 * theme, colour scheme and signed-out top bar, online, neither installed nor installable (home says all three), and no query for a screen that reads it. Otherwise the app
 * renders afresh over it, which React does without a mismatch to recover from.
 */
export function canHydrate(mark: PrerenderMark | null, state: ClientState): boolean {
  if (!mark) return false;
  if (state.signedIn || !state.online || state.installed || state.installable) return false;
  if (state.language !== mark.language || state.theme !== mark.theme || state.colorScheme !== mark.colorScheme) return false;
  if (firstRouteAt(state.path, state.signedIn) !== mark.route) return false;
  return !(routeById(mark.route)?.readsQuery && state.search !== '');
}
