/**
 * The imports that show each row of the boundary tables at work: for every row, an import of a
 * folder it may not import at all, one past the entry of each folder it reaches, and one through
 * that entry; for every layer of src/, one of a layer above it and one of a layer below, and, when
 * the app's tests may import more, one of its tests through such a folder's entry and one of a
 * layer above; for every slice, one past its entry from a folder that keeps it. Each is a line of a
 * module at the place a file of that row would sit, importing a real file of the repository.
 */
import { posix } from 'node:path';
import type { Tables } from './table.ts';

export interface Probe {
  /** The row it tries, as the table names it. */
  row: string;
  /** Where the module sits, from the repository's root (several probes of a row share one, a line each). */
  file: string;
  specifier: string;
  refused: boolean;
}

const isFile = (name: string) => /\.[a-z]+$/.test(name);
const isTest = (file: string) => /\.test(-support)?\.tsx?$/.test(file);
const isCode = (file: string) => /\.(tsx?|mjs)$/.test(file) && !file.endsWith('.d.ts') && !isTest(file);

/** Whether a file is the path (written with or without its extension) or matches the glob. */
function covers(path: string, file: string): boolean {
  const pattern = path
    .split(/(\*\*\/?|\*)/)
    .map((part) =>
      part === '**/' ? '(?:.*/)?' : part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${pattern}(?:\\.(?:d\\.ts|tsx?|mjs))?$`).test(file);
}

/** The probes of the tables, given the repository's files (paths from its root). */
export function probesOf(tables: Tables, files: string[]): Probe[] {
  const probes: Probe[] = [];
  const inside = (folder: string) => files.filter((f) => f.startsWith(`${folder}/`) && isCode(f)).sort();
  const entriesOf = new Map(tables.rooms.flatMap((room) => room.names.map((name) => [name, room.entries.map((e) => `${name}/${e}`)])));
  const folders = [...entriesOf.keys()].filter((name) => !isFile(name));
  /** A probe in the module `file`, or in a new module of the folder `file` when it names a folder. */
  const add = (row: string, file: string, target: string, refused: boolean) => {
    const module = isFile(file) ? file : `${file}/boundary-probe${row.endsWith(' tests') ? '.test' : ''}.ts`;
    let specifier = posix.relative(posix.dirname(module), target);
    if (!specifier.startsWith('.')) specifier = `./${specifier}`;
    probes.push({ row, file: module, specifier, refused });
  };

  for (const room of tables.rooms) {
    const [name] = room.names as [string];
    // A row of files (the configuration at the top) is tried in the first of them.
    const variants = [{ row: name, allowed: room.mayImport }];
    if (room.testsMayImport.length) variants.push({ row: `${name} tests`, allowed: [...room.mayImport, ...room.testsMayImport] });
    for (const { row, allowed } of variants) {
      const place = (target: string, refused: boolean) => add(row, name, target, refused);
      const reached = new Set(allowed.map((a) => a.split('/')[0]!));
      const refusedFolder = folders.find((f) => !room.names.includes(f) && !reached.has(f));
      if (refusedFolder) place(entriesOf.get(refusedFolder)![0] ?? inside(refusedFolder)[0]!, true);
      for (const folder of reached) {
        const open = allowed.filter((a) => a === folder || a.startsWith(`${folder}/`));
        const entries = open.includes(folder) ? entriesOf.get(folder)! : [];
        const past = inside(folder).find((f) => !entries.includes(f) && !open.some((a) => covers(a, f)));
        if (past) place(past, true);
        if (entries[0]) place(entries[0], false);
      }
    }
  }

  const layerFolder = (name: string) => name.replace(/\/\*$/, '');
  const layerFile = (name: string) => (isFile(name) ? `src/${name}` : inside(`src/${layerFolder(name)}`)[0]!);
  const order = tables.layers.flatMap((layer) => layer.names);
  // What only the app's tests may import: a layer's tests reach it too, and still no layer above.
  const appTests = tables.rooms.find((room) => room.names.includes('src'))?.testsMayImport ?? [];
  const testsOnly = appTests.map((name) => entriesOf.get(name.split('/')[0]!)?.[0]).find((entry) => entry !== undefined);
  for (const layer of tables.layers) {
    const [name] = layer.names as [string];
    const row = `src/${name}`;
    // A layer's own files sit one folder down when its folders stand apart (features/*: one screen).
    const at = name.endsWith('/*') ? posix.dirname(layerFile(name)) : `src/${name}`;
    const above = order.find((other) => !layer.names.includes(other) && !layer.mayImport.includes(layerFolder(other)));
    if (above) add(row, at, layerFile(above), true);
    const below = layer.mayImport.at(-1);
    // A layer below that is a slice is allowed through its entry.
    const slice = tables.slices.find((sl) => sl.folder === below);
    if (below) add(row, at, slice ? `src/${slice.folder}/${slice.entry}` : layerFile(below), false);
    if (name.endsWith('/*')) {
      const sibling = inside(`src/${layerFolder(name)}`).find((f) => !f.startsWith(`${at}/`));
      if (sibling) add(row, at, sibling, true);
    }
    if (testsOnly && !isFile(name)) {
      add(`${row} tests`, at, testsOnly, false);
      if (above) add(`${row} tests`, at, layerFile(above), true);
    }
  }
  for (const slice of tables.slices) {
    const entry = `src/${slice.folder}/${slice.entry}`;
    const past = inside(`src/${slice.folder}`).find((f) => f !== entry)!;
    for (const keeper of slice.keptBy) {
      // A keeper whose folders stand apart (features/*) is tried in one of them.
      const at = keeper.endsWith('/*') ? posix.dirname(layerFile(keeper)) : `src/${keeper}`;
      add(`src/${keeper} keeps ${slice.folder}`, at, past, true);
      add(`src/${keeper} keeps ${slice.folder}`, at, entry, false);
    }
  }
  return probes;
}
