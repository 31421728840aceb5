// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';

// Imported afresh inside each test: the themes are made when the module is evaluated, and mutation
// testing switches a change on per test, after the file's own imports have run.
async function fresh() {
  vi.resetModules();
  return import('./themes');
}

describe('themes', () => {
  it('are the four of the seed, with their primary, accent and mode (seed-spec §3, Themes)', async () => {
    const { THEME_MODES, THEME_NAMES } = await fresh();
    vi.resetModules();
    const { THEMES } = await import('../ui/theme-colors');
    expect(THEMES).toEqual({
      DEEPPURPLE_AMBER: { primary: '#673AB7', accent: '#FFC107', mode: 'light' },
      INDIGO_PINK: { primary: '#3F51B5', accent: '#E91E63', mode: 'light' },
      PINK_BLUEGREY: { primary: '#E91E63', accent: '#607D8B', mode: 'dark' },
      PURPLE_GREEN: { primary: '#9C27B0', accent: '#4CAF50', mode: 'dark' },
    });
    expect(Object.keys(THEMES)).toEqual([...THEME_NAMES]);
    expect(THEME_MODES).toEqual({ DEEPPURPLE_AMBER: 'light', INDIGO_PINK: 'light', PINK_BLUEGREY: 'dark', PURPLE_GREEN: 'dark' });
  });

  it('default to INDIGO_PINK (seed-spec §3 and §9), one of the four', async () => {
    const { DEFAULT_THEME, isThemeName } = await fresh();
    expect(DEFAULT_THEME).toBe('INDIGO_PINK');
    expect(isThemeName(DEFAULT_THEME)).toBe(true);
  });
});
