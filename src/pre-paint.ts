import { AUTH_KEY, PREFERENCE_KEY } from './config/storage-keys';
import { MEMBERS_ONLY_ATTRIBUTE } from './config/page-files';
import { isLanguage, matchBrowserLanguage } from './config/languages';
import { colorSchemeOf, isThemeName, DEFAULT_THEME } from './config/themes';
import { afterFirstContentfulPaint } from './lib/first-paint';
import { reportStartFailure } from './lib/start-failure';
import { recordEarlyInstallEvents } from './lib/early-install';

/**
 * Inline, first in <head> of every page (the strict CSP allows it by its SHA-256, which the build
 * writes for the server), so it runs before the first frame and that frame waits for no request:
 * the member's theme and language from storage apply, and what the prerendered HTML shows that
 * would not be theirs is hidden until the app renders over it. Then it loads the app.
 */
function stored(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    // Stryker disable next-line ConditionalExpression: JSON.parse(null) is null, which every caller reads as nothing stored, as it does undefined
    // Stryker disable BlockStatement: an empty catch falls through to the function's end, which returns undefined as well
    return raw === null ? undefined : JSON.parse(raw);
  } catch {
    // Stryker restore BlockStatement
    return undefined;
  }
}

export function prePaint(html: HTMLElement = document.documentElement, page: Pick<Location, 'pathname' | 'replace'> = location): void {
  const preference = stored(PREFERENCE_KEY);
  // Object() boxes a stored primitive (and makes null an empty object): its fields all read as undefined.
  const fields: Record<string, unknown> = Object(preference);
  // The stylesheet holds each theme's colours in both modes (html[data-theme=…]) and picks the mode
  // by data-color-scheme (the system's follows live, in CSS); the app's applyTheme follows.
  html.dataset.theme = isThemeName(fields.activeThemeName) ? fields.activeThemeName : DEFAULT_THEME;
  html.dataset.colorScheme = colorSchemeOf(fields);
  // A first visit: the browser's language, as the app picks it (a deployment's configured default
  // is known only once its configuration is read, by the app).
  // Stryker disable next-line ArrayDeclaration: without navigator.languages, any list that names no supported language gives English alike
  const language = isLanguage(fields.language) ? fields.language : (matchBrowserLanguage(navigator.languages ?? []) ?? 'en');
  const prerendered = html.getAttribute('data-prerender-lang');
  html.lang = language;
  if (prerendered && language !== prerendered) html.setAttribute('data-l10n-pending', '');
  const signedIn = stored(AUTH_KEY) === true;
  if (signedIn) html.setAttribute('data-account-pending', '');
  // A members' page (its HTML is a frame with a loading state): a visitor signed out goes on to
  // sign-in, as the app's guard would send them, before this page paints a frame that is not theirs
  // and without waiting for the app's code.
  else if (html.hasAttribute(MEMBERS_ONLY_ATTRIBUTE)) page.replace(`/sign-in?next=${encodeURIComponent(page.pathname)}`);
}

/** The app's entry, named by the build: it is asked for only once the page has painted. */
declare const __APP_ENTRY__: string | undefined;

/**
 * Loads the app once the HTML's screen is painted: requested with the stylesheet, its scripts would
 * share the first round trips and delay that paint (the page's HTML has no script of the app's).
 */
export function startApp(entry: string): void {
  afterFirstContentfulPaint(() => {
    import(/* @vite-ignore */ entry).catch(reportStartFailure);
  });
}

prePaint();
recordEarlyInstallEvents();
if (typeof __APP_ENTRY__ === 'string') startApp(__APP_ENTRY__);
