import { THEME_MODES, type Mode, type ThemeName } from '../config/themes.ts';

export interface Theme {
  primary: string;
  accent: string;
  mode: Mode;
}

/**
 * The seed's four themes as its table gives them: brand colours and mode. Read where a theme is
 * drawn from its colours: the stylesheet's tokens and the manifest (at build time), the settings'
 * swatches. The first load does without them: its colours are the stylesheet's, and the browser's
 * bar takes the primary from there (ui/theme.ts).
 */
export const THEMES: Readonly<Record<ThemeName, Theme>> = {
  DEEPPURPLE_AMBER: { primary: '#673AB7', accent: '#FFC107', mode: THEME_MODES.DEEPPURPLE_AMBER },
  INDIGO_PINK: { primary: '#3F51B5', accent: '#E91E63', mode: THEME_MODES.INDIGO_PINK },
  PINK_BLUEGREY: { primary: '#E91E63', accent: '#607D8B', mode: THEME_MODES.PINK_BLUEGREY },
  PURPLE_GREEN: { primary: '#9C27B0', accent: '#4CAF50', mode: THEME_MODES.PURPLE_GREEN },
};
