// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { headsSvg, overviewLayout } from './overview.ts';
import { SCREENS, shotsFor } from './plan.ts';

describe('overviewLayout', () => {
  const screens = SCREENS.filter((s) => s.id === 'home' || s.id === 'admin');
  const layout = overviewLayout(shotsFor(screens, ['en']));

  it('puts a row per screen and a column per width and theme, heads first', () => {
    expect(layout.rows.map((r) => r.label)).toEqual(['Home', 'Admin: symbols']);
    expect(layout.columns.map((c) => c.label)).toEqual(['390 px, light', '390 px, dark', '1280 px, light', '1280 px, dark']);
    // Phones at half size (195 x 422), desktops at 0.3 (384 x 240); 16 px between, 150 px of row heads, 32 of column heads.
    expect(layout.columns.map((c) => c.left)).toEqual([150, 361, 572, 972]);
    expect(layout.rows.map((r) => r.top)).toEqual([32, 470]);
    expect([layout.width, layout.height]).toEqual([1356, 892]);
  });

  it('places each shot in its row and column, at its scaled size', () => {
    const at = (id: string, viewport: string, mode: string) =>
      layout.tiles.find((t) => t.shot.screen.id === id && t.shot.viewport.id === viewport && t.shot.theme.mode === mode);
    expect(at('admin', 'desktop', 'dark')).toMatchObject({ left: 972, top: 470, width: 384, height: 240 });
    expect(at('home', 'phone', 'light')).toMatchObject({ left: 150, top: 32, width: 195, height: 422 });
    expect(layout.tiles).toHaveLength(8);
  });

  it('draws the heads as text, escaped, on white', () => {
    const svg = headsSvg({ ...layout, rows: [{ top: 32, label: 'Profile: <create> & edit' }] });
    expect(svg).toContain('width="1356" height="892"');
    expect(svg).toContain('>Profile: &lt;create&gt; &amp; edit</text>');
    expect(svg).toContain('>1280 px, dark</text>');
  });
});
