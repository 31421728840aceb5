import type { Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, THEME_NAMES, THEMES } from '../config/themes';
import { themeTokens } from '../ui/theme-tokens';
import { themeStylesheet } from './theme-stylesheet';

/** What the plugin gives for an import of the stylesheet, as Vite would ask it. */
function stylesheet(plugin: Plugin): string {
  const resolveId = plugin.resolveId as (id: string) => string | null;
  const load = plugin.load as (id: string) => string | null;
  const id = resolveId('virtual:theme-tokens.css');
  if (!id) throw new Error('the plugin does not resolve the stylesheet');
  return load(id) ?? '';
}

describe('the themes stylesheet plugin', () => {
  it('answers only its own virtual module', () => {
    const plugin = themeStylesheet();
    const resolveId = plugin.resolveId as (id: string) => string | null;
    const load = plugin.load as (id: string) => string | null;
    expect(resolveId('./styles.css')).toBeNull();
    expect(load('/src/styles.css')).toBeNull();
  });

  it("writes one rule per theme with its tokens and colour scheme, the default one :root's too", () => {
    const rules = stylesheet(themeStylesheet()).split('\n');
    expect(rules).toHaveLength(THEME_NAMES.length);
    for (const [i, name] of THEME_NAMES.entries()) {
      const selector = name === DEFAULT_THEME ? `:root,html[data-theme="${name}"]` : `html[data-theme="${name}"]`;
      const declarations = [...Object.entries(themeTokens(name)).map(([p, v]) => `${p}:${v}`), `color-scheme:${THEMES[name].mode}`];
      expect(rules[i]).toBe(`${selector}{${declarations.join(';')}}`);
    }
  });
});
