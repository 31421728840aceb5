/** The Vite plugin that writes the themes' stylesheet at build time (and in the dev server). */
import type { Plugin } from 'vite';
import { DEFAULT_THEME, THEME_NAMES } from '../config/themes.ts';
import { themeTokens } from '../ui/theme-tokens.ts';

const ID = 'virtual:theme-tokens.css';

/** A token's value in both modes: one colour when they agree, else `light-dark()` picks by the used colour scheme. */
const both = (light: string, dark: string) => (light === dark ? light : `light-dark(${light},${dark})`);

/**
 * The themes as rules: the colour scheme on <html> (`data-color-scheme`: light, dark, or left to the
 * system, which `color-scheme: light dark` follows live), the tokens every theme shares on :root, and
 * one rule per theme, `html[data-theme=…]`, with its own. Each token holds its light and its dark
 * value, so a change of mode, chosen or the system's, is the browser's alone: no script, no flash.
 */
function themeRules(): string {
  const themes = THEME_NAMES.map((name) => ({ name, light: themeTokens(name, 'light'), dark: themeTokens(name, 'dark') }));
  const first = themes[0]!;
  const properties = Object.keys(first.light);
  const isShared = (property: string) =>
    themes.every((t) => t.light[property] === first.light[property] && t.dark[property] === first.dark[property]);
  const declarations = (theme: (typeof themes)[number], shared: boolean) =>
    properties.filter((p) => isShared(p) === shared).map((p) => `${p}:${both(theme.light[p]!, theme.dark[p]!)}`);
  return [
    `:root{${['color-scheme:light dark', ...declarations(first, true)].join(';')}}`,
    'html[data-color-scheme="light"]{color-scheme:light}',
    'html[data-color-scheme="dark"]{color-scheme:dark}',
    ...themes.map((theme) => {
      // The default theme's rule is :root's as well: without the pre-paint script, it is the one shown.
      const selector = theme.name === DEFAULT_THEME ? `:root,html[data-theme="${theme.name}"]` : `html[data-theme="${theme.name}"]`;
      return `${selector}{${declarations(theme, false).join(';')}}`;
    }),
  ].join('\n');
}

/**
 * The themes as a stylesheet (`import 'virtual:theme-tokens.css'`): the pre-paint script then sets
 * only `data-theme` and `data-color-scheme` before the first paint, and carries no colour table of
 * its own.
 */
export function themeStylesheet(): Plugin {
  return {
    name: 'circle:theme-stylesheet',
    resolveId: (id) => (id === ID ? `\0${ID}` : null),
    load: (id) => (id === `\0${ID}` ? themeRules() : null),
  };
}
