import { type ColorScheme, THEMES, type ThemeName } from '../config/themes';

/**
 * Applies a theme and a colour scheme: the stylesheet holds every theme's custom properties in both
 * modes (html[data-theme=…], made by the build from ui/theme-tokens.ts) and follows
 * data-color-scheme, the system's live, so naming them is enough; the browser's bar follows too.
 */
export function applyTheme(name: ThemeName, scheme: ColorScheme, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = name;
  root.dataset.colorScheme = scheme;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (meta) meta.content = THEMES[name].primary;
}
