import type { ColorScheme, ThemeName } from '../config/themes';

/**
 * Applies a theme and a colour scheme: the stylesheet holds every theme's custom properties in both
 * modes (html[data-theme=…], made by the build from ui/theme-tokens.ts) and follows
 * data-color-scheme, the system's live, so naming them is enough. The browser's bar follows, in the
 * primary the stylesheet now gives (the first load carries no colour table of its own).
 */
export function applyTheme(name: ThemeName, scheme: ColorScheme, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = name;
  root.dataset.colorScheme = scheme;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  const primary = getComputedStyle(root).getPropertyValue('--color-primary').trim();
  if (meta && primary) meta.content = primary;
}
