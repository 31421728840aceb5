/** The Vite plugin that writes the themes' stylesheet at build time (and in the dev server). */
import type { Plugin } from 'vite';
import { DEFAULT_THEME, THEME_NAMES, THEMES } from '../config/themes.ts';
import { themeTokens } from '../ui/theme-tokens.ts';

const ID = 'virtual:theme-tokens.css';

/** One rule per theme, `html[data-theme=…]`, with the custom properties ui/theme.ts works out. */
function themeRules(): string {
  return THEME_NAMES.map((name) => {
    const declarations = Object.entries(themeTokens(name)).map(([property, value]) => `${property}:${value}`);
    // The default theme's rule is :root's as well: without the pre-paint script, it is the one shown.
    const selector = name === DEFAULT_THEME ? `:root,html[data-theme="${name}"]` : `html[data-theme="${name}"]`;
    return `${selector}{${[...declarations, `color-scheme:${THEMES[name].mode}`].join(';')}}`;
  }).join('\n');
}

/**
 * The themes as a stylesheet (`import 'virtual:theme-tokens.css'`): the pre-paint script then sets
 * only `data-theme` before the first paint, and carries no colour table of its own.
 */
export function themeStylesheet(): Plugin {
  return {
    name: 'circle:theme-stylesheet',
    resolveId: (id) => (id === ID ? `\0${ID}` : null),
    load: (id) => (id === `\0${ID}` ? themeRules() : null),
  };
}
