/** The four themes a member can pick: their brand colours and whether they are light or dark. */
export const THEME_NAMES = ['DEEPPURPLE_AMBER', 'INDIGO_PINK', 'PINK_BLUEGREY', 'PURPLE_GREEN'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

export interface Theme {
  primary: string;
  accent: string;
  mode: 'light' | 'dark';
}

export const THEMES: Readonly<Record<ThemeName, Theme>> = {
  DEEPPURPLE_AMBER: { primary: '#673AB7', accent: '#FFC107', mode: 'light' },
  INDIGO_PINK: { primary: '#3F51B5', accent: '#E91E63', mode: 'light' },
  PINK_BLUEGREY: { primary: '#E91E63', accent: '#607D8B', mode: 'dark' },
  PURPLE_GREEN: { primary: '#9C27B0', accent: '#4CAF50', mode: 'dark' },
};

export const DEFAULT_THEME: ThemeName = 'INDIGO_PINK';

export function isThemeName(value: unknown): value is ThemeName {
  // Stryker disable next-line ConditionalExpression: includes() compares with SameValueZero and the list holds strings only, so a non-string is refused with or without the typeof test (it narrows the type for the compiler)
  return typeof value === 'string' && (THEME_NAMES as readonly string[]).includes(value);
}
