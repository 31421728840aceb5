/**
 * Reads the boundary tables of docs/architecture.md: between the top-level folders (folder, entry,
 * may import, what its tests also import), between the layers of src/ (layer, holds, may import),
 * and the slices of src/ kept behind their entry (slice, entry, kept by). A cell's names are its
 * `backticked` words outside parentheses, so the table reads as prose and as data at once.
 */

/** A top-level folder (or a set of top-level files) and what it may import. */
export interface Room {
  /** Folder names (`verify`) or top-level file names (`vite.config.ts`). */
  names: string[];
  /** Files of the folder others import, relative to it; empty: nobody imports it. */
  entries: string[];
  /** Folders it reaches through their entries, and paths (`src/api/schema`, `src/i18n/*`) past them. */
  mayImport: string[];
  /** What its tests (`*.test.ts`, `*.test-support.ts`) may import besides. */
  testsMayImport: string[];
}

/** A layer of src/ (a folder, `features/*` for one whose folders stand apart, or a file). */
export interface Layer {
  names: string[];
  mayImport: string[];
}

/** A folder of src/ used through its entry by the folders that keep it. */
export interface Slice {
  folder: string;
  entry: string;
  keptBy: string[];
}

export interface Tables {
  rooms: Room[];
  layers: Layer[];
  slices: Slice[];
}

export class TableError extends Error {}

/** The backticked names of a cell, outside parentheses; `—` or no name is an empty list. */
export function names(cell: string): string[] {
  let depth = 0;
  let outside = '';
  for (const char of cell) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) outside += char;
  }
  return [...outside.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, ''));
}

/** The rows of the first table whose header is exactly these columns, as their cells. */
function rowsOf(markdown: string, header: string[]): string[][] {
  const lines = markdown.split('\n');
  const cellsOf = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim());
  const start = lines.findIndex((line) => line.trim().startsWith('|') && cellsOf(line).join('|') === header.join('|'));
  if (start < 0) throw new TableError(`no table with the columns ${header.join(' | ')}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.trim().startsWith('|')) break;
    const cells = cellsOf(line);
    if (cells.length !== header.length) throw new TableError(`a row of the ${header[0]} table has ${cells.length} cells: ${line}`);
    rows.push(cells);
  }
  if (rows.length === 0) throw new TableError(`the ${header[0]} table has no rows`);
  return rows;
}

const ROOM_COLUMNS = ['folder', 'entry', 'may import', 'its tests also'];
const LAYER_COLUMNS = ['layer', 'holds', 'may import'];
const SLICE_COLUMNS = ['slice', 'entry', 'kept by'];

export function readTables(markdown: string): Tables {
  const rooms = rowsOf(markdown, ROOM_COLUMNS).map(([folder, entry, mayImport, tests]) => ({
    names: names(folder!),
    entries: names(entry!),
    mayImport: names(mayImport!),
    testsMayImport: names(tests!),
  }));
  const layers = rowsOf(markdown, LAYER_COLUMNS).map(([layer, , mayImport]) => ({ names: names(layer!), mayImport: names(mayImport!) }));
  const slices = rowsOf(markdown, SLICE_COLUMNS).map(([slice, entry, keptBy]) => {
    const [folder] = names(slice!);
    const [file] = names(entry!);
    if (!folder || !file) throw new TableError(`a slice row needs a folder and an entry: ${slice} | ${entry}`);
    return { folder, entry: file, keptBy: names(keptBy!) };
  });
  for (const row of [...rooms, ...layers]) if (row.names.length === 0) throw new TableError('a row names no folder');
  return { rooms, layers, slices };
}
