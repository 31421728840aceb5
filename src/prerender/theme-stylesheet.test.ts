import type { Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, type Mode, THEME_NAMES, type ThemeName } from '../config/themes';
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
});

/** The rules as selector → declarations (property → value), in the stylesheet's order. */
function parse(css: string): [selector: string, declarations: Map<string, string>][] {
  return [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)].map(([, selector, body]) => [
    selector!.trim(),
    new Map(body!.split(';').map((d) => [d.slice(0, d.indexOf(':')), d.slice(d.indexOf(':') + 1)] as [string, string])),
  ]);
}

/** What a custom property holds once `light-dark()` is resolved for a used colour scheme. */
const resolve = (value: string, mode: Mode) =>
  value.replace(/^light-dark\((.+?),((?:#|rgb\().+)\)$/, (_, light, dark) => (mode === 'light' ? light : dark));

/**
 * The tokens <html data-theme=name> gets in a mode: :root's, then its theme's rule over them (more
 * specific, wherever it stands: another theme's rule is :root's too).
 */
function tokensOf(css: string, name: ThemeName, mode: Mode): Record<string, string> {
  const found: Record<string, string> = {};
  const rules = parse(css);
  for (const target of [':root', `html[data-theme="${name}"]`]) {
    for (const [selector, declarations] of rules) {
      if (!selector.split(',').includes(target)) continue;
      for (const [property, value] of declarations) if (property.startsWith('--')) found[property] = resolve(value, mode);
    }
  }
  return found;
}

describe('the themes rules', () => {
  const css = stylesheet(themeStylesheet());

  it.each(THEME_NAMES.flatMap((name) => (['light', 'dark'] as const).map((mode) => [name, mode] as const)))(
    'give %s in %s mode exactly its tokens',
    (name, mode) => {
      expect(tokensOf(css, name, mode)).toEqual(themeTokens(name, mode));
    },
  );

  it('follow the system unless the member chose a scheme: color-scheme on :root, and per data-color-scheme', () => {
    const rules = new Map(parse(css));
    expect(rules.get(':root')?.get('color-scheme')).toBe('light dark');
    expect(rules.get('html[data-color-scheme="light"]')?.get('color-scheme')).toBe('light');
    expect(rules.get('html[data-color-scheme="dark"]')?.get('color-scheme')).toBe('dark');
    expect([...css.matchAll(/color-scheme:/g)]).toHaveLength(3);
  });

  it("say what every theme shares once, and the default theme's on :root too (the page without the pre-paint script)", () => {
    const selectors = parse(css).map(([selector]) => selector);
    expect(selectors).toContain(`:root,html[data-theme="${DEFAULT_THEME}"]`);
    // The background is the same for every theme in a mode: it is not repeated per theme.
    expect(css.match(/--color-bg:/g)).toHaveLength(1);
    expect(css.match(/--color-primary:/g)).toHaveLength(THEME_NAMES.length);
  });
});
