import { describe, expect, it } from 'vitest';
import { colorSchemeOf, DEFAULT_THEME, isColorScheme, isThemeName, THEME_NAMES } from '../config/themes';
import { THEMES } from './theme-colors';
import { applyTheme } from './theme';
import { contrast, luminance, readableOn, textOn, themeTokens } from './theme-tokens';

describe('themes', () => {
  it("are the seed's four, with their primary, accent and mode", () => {
    expect(THEMES).toEqual({
      DEEPPURPLE_AMBER: { primary: '#673AB7', accent: '#FFC107', mode: 'light' },
      INDIGO_PINK: { primary: '#3F51B5', accent: '#E91E63', mode: 'light' },
      PINK_BLUEGREY: { primary: '#E91E63', accent: '#607D8B', mode: 'dark' },
      PURPLE_GREEN: { primary: '#9C27B0', accent: '#4CAF50', mode: 'dark' },
    });
    expect([...THEME_NAMES].sort()).toEqual(Object.keys(THEMES).sort());
    expect(DEFAULT_THEME).toBe('INDIGO_PINK');
  });

  it('isThemeName accepts exactly the four names', () => {
    for (const name of THEME_NAMES) expect(isThemeName(name)).toBe(true);
    for (const other of ['HOTDOG', 'indigo_pink', '', null, 3, ['INDIGO_PINK']]) expect(isThemeName(other)).toBe(false);
  });

  it('isColorScheme accepts system, light and dark only', () => {
    for (const scheme of ['system', 'light', 'dark']) expect(isColorScheme(scheme)).toBe(true);
    for (const other of ['Dark', 'sepia', '', null, 1, ['dark']]) expect(isColorScheme(other)).toBe(false);
  });
});

describe('colorSchemeOf a stored preference', () => {
  it('is the scheme it names', () => {
    expect(colorSchemeOf({ activeThemeName: 'PINK_BLUEGREY', colorScheme: 'light' })).toBe('light');
    expect(colorSchemeOf({ colorScheme: 'dark' })).toBe('dark');
    expect(colorSchemeOf({ activeThemeName: 'INDIGO_PINK', colorScheme: 'system' })).toBe('system');
  });

  it("is its theme's own mode when it names a theme and no scheme (as the seed stores it), so the theme looks as it did", () => {
    expect(colorSchemeOf({ activeThemeName: 'PINK_BLUEGREY' })).toBe('dark');
    expect(colorSchemeOf({ activeThemeName: 'PURPLE_GREEN', colorScheme: 'sepia' })).toBe('dark');
    expect(colorSchemeOf({ activeThemeName: 'DEEPPURPLE_AMBER' })).toBe('light');
  });

  it("is the system's when it names neither", () => {
    expect(colorSchemeOf({})).toBe('system');
    expect(colorSchemeOf({ activeThemeName: 'NEON', colorScheme: 7 })).toBe('system');
  });
});

describe('contrast helpers', () => {
  it('compute WCAG luminance and contrast ratios', () => {
    expect(luminance('#FFFFFF')).toBeCloseTo(1, 5);
    expect(luminance('#000000')).toBe(0);
    expect(contrast('#FFFFFF', '#000000')).toBeCloseTo(21, 5);
    expect(contrast('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#777777')).toBe(1);
    // A well-known pair: #767676 on white is just above 4.5:1.
    expect(contrast('#767676', '#FFFFFF')).toBeCloseTo(4.54, 2);
  });

  it('readableOn keeps a colour that already reads and otherwise moves it until it does', () => {
    expect(readableOn('#000000', '#FFFFFF')).toBe('#000000');
    const adjusted = readableOn('#FFC107', '#FFFFFF');
    expect(adjusted).not.toBe('#FFC107');
    expect(contrast(adjusted, '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(readableOn('#3F51B5', '#121212'), '#121212')).toBeGreaterThanOrEqual(4.5);
  });

  it('textOn picks a text colour that reads on the fill', () => {
    expect(textOn('#000000')).toBe('#FFFFFF');
    expect(textOn('#FFFFFF')).not.toBe('#FFFFFF');
  });

  it('readableOn moves a colour in steps of 5% toward black on a light background, to the first that reads, as upper-case #RRGGBB', () => {
    // Amber on white needs 45% toward black; its blue channel drops to a single hex digit, written 04.
    expect(readableOn('#FFC107', '#FFFFFF')).toBe('#8C6A04');
    // A colour that reads already, by any margin, is kept as it is.
    expect(readableOn('#1B1B1F', '#FFFFFF')).toBe('#1B1B1F');
  });

  it('readableOn moves toward white on a dark background', () => {
    expect(readableOn('#3F51B5', '#121212')).toBe('#6F7DC8');
    expect(readableOn('#0A0A0A', '#000000')).toBe('#787878');
  });

  it('readableOn counts a ratio reached exactly as reached', () => {
    expect(readableOn('#767676', '#FFFFFF', contrast('#767676', '#FFFFFF'))).toBe('#767676');
    expect(readableOn('#FFC107', '#FFFFFF', contrast('#8C6A04', '#FFFFFF'))).toBe('#8C6A04');
  });

  it('readableOn gives black or white when no step reaches the ratio', () => {
    expect(readableOn('#888888', '#FFFFFF', 21)).toBe('#000000');
    expect(readableOn('#777777', '#777777')).toBe('#FFFFFF');
  });

  it('textOn gives white on dark fills, near-black on light ones, and black on mid-tones where neither reads', () => {
    expect(textOn('#3F51B5')).toBe('#FFFFFF');
    expect(textOn('#FFFFFF')).toBe('#111111');
    expect(textOn('#FFC107')).toBe('#111111');
    // Pink and blue grey: white reaches only ~4.35:1 and #111111 less than black.
    expect(textOn('#E91E63')).toBe('#000000');
    expect(textOn('#607D8B')).toBe('#000000');
  });

  it('textOn keeps white on a fill where white just reads and black would read a little better', () => {
    // #767676: white 4.54:1, black 4.6:1, #111111 only 4.1:1; white is the better of the two it offers.
    expect(textOn('#767676')).toBe('#FFFFFF');
  });
});

/** The pairs the app draws text with, each at least 4.5:1 (WCAG AA for normal text). */
const TEXT_PAIRS: [text: string, background: string][] = [
  ['--color-text', '--color-surface'],
  ['--color-text', '--color-bg'],
  ['--color-text-muted', '--color-surface'],
  ['--color-text-muted', '--color-bg'],
  ['--color-primary-text', '--color-surface'],
  ['--color-primary-text', '--color-bg'],
  ['--color-danger', '--color-surface'],
  ['--color-danger', '--color-bg'],
  ['--color-on-primary', '--color-primary'],
  ['--color-on-accent', '--color-accent'],
  ['--color-primary-text', '--color-primary-container'],
  ['--color-text', '--color-primary-container'],
];

describe.each(THEME_NAMES.flatMap((name) => (['light', 'dark'] as const).map((mode) => [name, mode] as const)))(
  'themeTokens(%s, %s)',
  (name, mode) => {
    const tokens = themeTokens(name, mode);

    it("uses the theme's primary and accent and a background for the mode", () => {
      expect(tokens['--color-primary']).toBe(THEMES[name].primary);
      expect(tokens['--color-accent']).toBe(THEMES[name].accent);
      const darkBackground = luminance(tokens['--color-bg']!) < 0.2;
      expect(darkBackground).toBe(mode === 'dark');
    });

    it.each(TEXT_PAIRS)('%s on %s reaches 4.5:1', (text, background) => {
      const fg = tokens[text];
      const bg = tokens[background];
      expect(fg, text).toMatch(/^#[0-9A-F]{6}$/i);
      expect(bg, background).toMatch(/^#[0-9A-F]{6}$/i);
      const ratio = contrast(fg!, bg!);
      expect(ratio, `${name} ${mode}: ${text} ${fg} on ${background} ${bg} is ${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(4.5);
    });
  },
);

describe('themeTokens without a mode', () => {
  it("gives the theme's own mode, the seed's", () => {
    for (const name of THEME_NAMES) expect(themeTokens(name)).toEqual(themeTokens(name, THEMES[name].mode));
  });
});

describe('applyTheme', () => {
  it('names the theme and the colour scheme on documentElement, and gives the browser bar the primary the stylesheet then has', () => {
    const meta = document.createElement('meta');
    meta.name = 'theme-color';
    meta.content = '#000000';
    // The themes' rules as the build writes them (html[data-theme=…]), their primaries only.
    const style = document.createElement('style');
    style.textContent = THEME_NAMES.map((name) => `html[data-theme="${name}"]{--color-primary:${THEMES[name].primary}}`).join('\n');
    document.head.append(meta, style);
    try {
      applyTheme('PURPLE_GREEN', 'light');
      expect(document.documentElement.dataset).toMatchObject({ theme: 'PURPLE_GREEN', colorScheme: 'light' });
      expect(meta.content).toBe('#9C27B0');
      applyTheme('INDIGO_PINK', 'system');
      expect(document.documentElement.dataset).toMatchObject({ theme: 'INDIGO_PINK', colorScheme: 'system' });
      expect(meta.content).toBe('#3F51B5');
    } finally {
      meta.remove();
      style.remove();
    }
  });

  it('leaves the bar as it is when no stylesheet gives a primary', () => {
    const meta = document.createElement('meta');
    meta.name = 'theme-color';
    meta.content = '#123456';
    document.head.append(meta);
    try {
      applyTheme('PURPLE_GREEN', 'dark');
      expect(meta.content).toBe('#123456');
    } finally {
      meta.remove();
    }
  });

  it('can theme another element', () => {
    const el = document.createElement('div');
    applyTheme('DEEPPURPLE_AMBER', 'dark', el);
    expect(el.dataset).toMatchObject({ theme: 'DEEPPURPLE_AMBER', colorScheme: 'dark' });
  });
});
