import { AUTH_KEY, PREFERENCE_KEY } from './config/storage-keys';
import { isLanguage, matchBrowserLanguage } from './config/languages';
import { isThemeName, DEFAULT_THEME } from './config/themes';

/**
 * Runs in <head>, before the first paint (a classic script, so the strict CSP needs no inline
 * code): the member's theme and language from storage apply at once, and what the prerendered
 * HTML shows that would not be theirs is hidden until the app renders over it.
 */
function stored(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export function prePaint(html: HTMLElement = document.documentElement): void {
  const preference = stored(PREFERENCE_KEY);
  const fields = preference && typeof preference === 'object' ? (preference as Record<string, unknown>) : {};
  // The stylesheet holds each theme's colours (html[data-theme=…]); the app's applyTheme follows.
  html.dataset.theme = isThemeName(fields.activeThemeName) ? fields.activeThemeName : DEFAULT_THEME;
  // A first visit: the browser's language, as the app picks it (a deployment's configured default
  // is known only once its configuration is read, by the app).
  const language = isLanguage(fields.language) ? fields.language : (matchBrowserLanguage(navigator.languages ?? []) ?? 'en');
  const prerendered = html.getAttribute('data-prerender-lang');
  html.lang = language;
  if (prerendered && language !== prerendered) html.setAttribute('data-l10n-pending', '');
  if (stored(AUTH_KEY) === true) html.setAttribute('data-account-pending', '');
}

prePaint();
