/**
 * The seed's four themes, each a pair of brand colours (the accent a member picks; the colours are
 * ui/theme-colors.ts's) and the mode it was made for. A member chooses the accent and, apart, a
 * colour scheme: light, dark, or the system's. The seed's themes are four of those pairs (indigo and
 * pink, light; pink and blue grey, dark…), and a preference stored before the scheme could be chosen
 * shows its theme's own mode.
 */
export const THEME_NAMES = ['DEEPPURPLE_AMBER', 'INDIGO_PINK', 'PINK_BLUEGREY', 'PURPLE_GREEN'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

export type Mode = 'light' | 'dark';

/** The mode each theme was made for: the seed's table's Mode column. */
export const THEME_MODES: Readonly<Record<ThemeName, Mode>> = {
  DEEPPURPLE_AMBER: 'light',
  INDIGO_PINK: 'light',
  PINK_BLUEGREY: 'dark',
  PURPLE_GREEN: 'dark',
};

export const DEFAULT_THEME: ThemeName = 'INDIGO_PINK';

export function isThemeName(value: unknown): value is ThemeName {
  // Stryker disable next-line ConditionalExpression: includes() compares with SameValueZero and the list holds strings only, so a non-string is refused with or without the typeof test (it narrows the type for the compiler)
  return typeof value === 'string' && (THEME_NAMES as readonly string[]).includes(value);
}

/** Light or dark, or whatever the device prefers (`prefers-color-scheme`), followed as it changes. */
export const COLOR_SCHEMES = ['system', 'light', 'dark'] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];
/** A first visit follows the device. */
export const DEFAULT_COLOR_SCHEME: ColorScheme = 'system';

export function isColorScheme(value: unknown): value is ColorScheme {
  return typeof value === 'string' && (COLOR_SCHEMES as readonly string[]).includes(value);
}

/**
 * The colour scheme a stored preference means: the one it names; else, for a preference that names
 * only a theme (as the seed stores it), that theme's mode, so the theme looks as it did; else the
 * system's.
 */
export function colorSchemeOf(stored: { colorScheme?: unknown; activeThemeName?: unknown }): ColorScheme {
  if (isColorScheme(stored.colorScheme)) return stored.colorScheme;
  return isThemeName(stored.activeThemeName) ? THEME_MODES[stored.activeThemeName] : DEFAULT_COLOR_SCHEME;
}
