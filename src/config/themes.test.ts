// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';

// Imported afresh inside each test: the themes are made when the module is evaluated, and mutation
// testing switches a change on per test, after the file's own imports have run.
async function fresh() {
  vi.resetModules();
  return import('./themes');
}

describe('themes', () => {
  it('are the four of the seed, each with its mode (seed-spec §3, Themes; their colours: ui/theme-colors.ts)', async () => {
    const { THEME_MODES, THEME_NAMES } = await fresh();
    expect(THEME_NAMES).toEqual(['DEEPPURPLE_AMBER', 'INDIGO_PINK', 'PINK_BLUEGREY', 'PURPLE_GREEN']);
    expect(THEME_MODES).toEqual({ DEEPPURPLE_AMBER: 'light', INDIGO_PINK: 'light', PINK_BLUEGREY: 'dark', PURPLE_GREEN: 'dark' });
  });

  it('default to INDIGO_PINK (seed-spec §3 and §9), one of the four', async () => {
    const { DEFAULT_THEME, isThemeName } = await fresh();
    expect(DEFAULT_THEME).toBe('INDIGO_PINK');
    expect(isThemeName(DEFAULT_THEME)).toBe(true);
  });
});
