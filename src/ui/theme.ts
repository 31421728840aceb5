import { THEMES, type ThemeName } from '../config/themes';

/**
 * Applies a theme: the stylesheet holds every theme's custom properties (html[data-theme=…], made
 * by the build from ui/theme-tokens.ts), so naming it is enough; the browser's bar follows too.
 */
export function applyTheme(name: ThemeName, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = name;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (meta) meta.content = THEMES[name].primary;
}
