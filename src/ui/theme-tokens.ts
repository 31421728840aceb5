import type { Mode, ThemeName } from '../config/themes.ts';
import { THEMES } from './theme-colors.ts';

// Each theme's colours in either mode, worked out from its two brand colours so that every text
// reads at 4.5:1. The build turns them into the stylesheet's rules (src/prerender/theme-stylesheet.ts):
// none of this runs in the browser.

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
}

/** WCAG relative luminance. */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function mix(hex: string, toward: string, amount: number): string {
  const a = parseHex(hex);
  const b = parseHex(toward);
  return toHex(a.map((c, i) => c + (b[i]! - c) * amount) as Rgb);
}

/** The colour moved toward black or white just enough to reach `ratio` against `background`. */
export function readableOn(color: string, background: string, ratio = 4.5): string {
  if (contrast(color, background) >= ratio) return color;
  const toward = luminance(background) > 0.5 ? '#000000' : '#FFFFFF';
  for (let step = 0.05; step <= 1; step += 0.05) {
    const candidate = mix(color, toward, step);
    if (contrast(candidate, background) >= ratio) return candidate;
  }
  return toward;
}

/** White or near-black, whichever reads better on `background`; pure black when neither reaches 4.5:1. */
export function textOn(background: string): string {
  const best = contrast('#FFFFFF', background) >= contrast('#111111', background) ? '#FFFFFF' : '#111111';
  // Mid-tone fills such as pink #E91E63 or blue grey #607D8B give white only ~4.35:1; black gives ~4.8:1.
  if (contrast(best, background) >= 4.5) return best;
  return contrast('#000000', background) > contrast(best, background) ? '#000000' : best;
}

/**
 * The custom properties a theme sets in a mode (by default the one it was made for); every colour
 * the app uses comes from these.
 */
export function themeTokens(name: ThemeName, mode: Mode = THEMES[name].mode): Record<string, string> {
  const t = THEMES[name];
  const dark = mode === 'dark';
  const bg = dark ? '#121212' : '#FAFAFA';
  const surface = dark ? '#1E1E1E' : '#FFFFFF';
  const text = dark ? '#ECECEC' : '#1B1B1F';
  const muted = dark ? '#B4B4B8' : '#55555D';
  // Filled bars and buttons keep the brand colour; text in that colour is adjusted to stay readable.
  const surface2 = dark ? '#2A2A2E' : '#F0F0F4';
  // Where the member is (the current nav item, the chosen option): the surface tinted with the primary.
  const container = mix(surface, t.primary, dark ? 0.24 : 0.12);
  // Text in a brand colour sits on the surfaces and on that tint.
  const primaryStrong = readableOn(readableOn(readableOn(t.primary, surface), surface2), container);
  const accentStrong = readableOn(readableOn(t.accent, surface), surface2);
  return {
    '--color-primary': t.primary,
    '--color-on-primary': textOn(t.primary),
    // Shades laid on the primary bar (status chip, current and hovered links): away from the
    // text colour, so that text on them reads at least as well as on the bar itself.
    '--color-on-primary-tint': textOn(t.primary) === '#FFFFFF' ? 'rgb(0 0 0 / 0.22)' : 'rgb(255 255 255 / 0.3)',
    '--color-accent': t.accent,
    '--color-on-accent': textOn(t.accent),
    '--color-primary-text': primaryStrong,
    '--color-accent-text': accentStrong,
    '--color-bg': bg,
    '--color-surface': surface,
    '--color-surface-2': surface2,
    '--color-primary-container': container,
    // Hairlines round cards and between rows: drawn, not read (no contrast asked of them).
    '--color-outline': dark ? '#3A3A40' : '#E0E0E6',
    '--color-text': text,
    '--color-text-muted': muted,
    '--color-border': dark ? '#5A5A60' : '#8A8A94',
    '--color-danger': readableOn(dark ? '#FF6B6B' : '#C62828', surface),
    '--color-success': readableOn(dark ? '#66BB6A' : '#2E7D32', surface),
    '--color-focus': dark ? '#FFD54F' : '#1A56DB',
    '--color-scrim': dark ? 'rgb(0 0 0 / 0.6)' : 'rgb(0 0 0 / 0.4)',
  };
}
