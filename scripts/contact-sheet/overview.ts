/**
 * The contact sheet at a glance: one image, a row per screen and a column per width and theme, each
 * tile the first screenful a member sees (what is fixed to the window's foot included), scaled down.
 * Small enough to keep in the repository: docs/design/ holds one from before a design change and
 * one from after. The layout is pure (overviewLayout); writeOverview draws it with sharp.
 */
import type { Shot } from './plan.ts';

/** The overview's file, beside index.html. */
export const OVERVIEW = 'overview.webp';

/** How much each width is scaled down in the overview. */
export const SCALE: Readonly<Record<Shot['viewport']['id'], number>> = { phone: 0.5, desktop: 0.3 };
const GAP = 16;
const LABEL_WIDTH = 150;
const HEADER_HEIGHT = 32;

export interface Placed {
  shot: Shot;
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface OverviewLayout {
  width: number;
  height: number;
  /** The column heads: where each starts and what it says. */
  columns: { left: number; label: string }[];
  /** The row heads: where each starts and its screen's title. */
  rows: { top: number; label: string }[];
  tiles: Placed[];
}

const columnOf = (shot: Shot) => `${shot.viewport.id} ${shot.theme.mode}`;

/** Where each shot goes: rows in the screens' order, columns in the shots' order of width then theme. */
export function overviewLayout(shots: readonly Shot[]): OverviewLayout {
  const columns: { key: string; label: string; width: number }[] = [];
  const rows: { key: string; label: string; height: number }[] = [];
  for (const shot of shots) {
    const scale = SCALE[shot.viewport.id];
    const key = columnOf(shot);
    if (!columns.some((c) => c.key === key))
      columns.push({ key, label: `${shot.viewport.width} px, ${shot.theme.mode}`, width: Math.round(shot.viewport.width * scale) });
    const row = rows.find((r) => r.key === shot.screen.id);
    const height = Math.round(shot.viewport.height * scale);
    if (row) row.height = Math.max(row.height, height);
    else rows.push({ key: shot.screen.id, label: shot.screen.title, height });
  }
  const lefts = columns.map((_, i) => LABEL_WIDTH + columns.slice(0, i).reduce((sum, c) => sum + c.width + GAP, 0));
  const tops = rows.map((_, i) => HEADER_HEIGHT + rows.slice(0, i).reduce((sum, r) => sum + r.height + GAP, 0));
  const tiles = shots.map((shot) => {
    const column = columns.findIndex((c) => c.key === columnOf(shot));
    const row = rows.findIndex((r) => r.key === shot.screen.id);
    const scale = SCALE[shot.viewport.id];
    return {
      shot,
      left: lefts[column]!,
      top: tops[row]!,
      width: Math.round(shot.viewport.width * scale),
      height: Math.round(shot.viewport.height * scale),
    };
  });
  const last = columns.length - 1;
  return {
    width: columns.length ? lefts[last]! + columns[last]!.width : LABEL_WIDTH,
    height: rows.length ? tops.at(-1)! + rows.at(-1)!.height : HEADER_HEIGHT,
    columns: columns.map((c, i) => ({ left: lefts[i]!, label: c.label })),
    rows: rows.map((r, i) => ({ top: tops[i]!, label: r.label })),
    tiles,
  };
}

const escapeXml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The heads as one SVG the size of the overview: black on white, the tiles go over the rest. */
export function headsSvg(layout: OverviewLayout): string {
  const text = (x: number, y: number, label: string) =>
    `<text x="${x}" y="${y}" font-family="sans-serif" font-size="15" fill="#1b1b1f">${escapeXml(label)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...layout.columns.map((c) => text(c.left, 20, c.label)),
    ...layout.rows.map((r) => text(0, r.top + 18, r.label)),
    '</svg>',
  ].join('');
}

type Sharp = typeof import('sharp').default;

/** Draws the overview of `firstScreens` (each shot's first screenful, as PNG) into `file`, as WebP. */
export async function writeOverview(sharp: Sharp, firstScreens: ReadonlyMap<Shot, Buffer>, file: string): Promise<void> {
  const layout = overviewLayout([...firstScreens.keys()]);
  const tiles = await Promise.all(
    layout.tiles.map(async (tile) => ({
      input: await sharp(firstScreens.get(tile.shot)!).resize(tile.width, tile.height, { fit: 'cover', position: 'top' }).toBuffer(),
      left: tile.left,
      top: tile.top,
    })),
  );
  await sharp(Buffer.from(headsSvg(layout)))
    .composite(tiles)
    .webp({ quality: 70 })
    .toFile(file);
}
