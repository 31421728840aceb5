/**
 * The boundary tables (./table.ts) as Biome overrides: one `noRestrictedImports` override per
 * top-level folder (and one for its tests when they may import more), then one per layer of src/
 * (and one for the layer's tests when the app's tests may import more), then one per folder that
 * keeps a slice behind its entry. Biome lets a later override replace an earlier one's rule for the
 * files both include, so each override carries every group its files must keep (a layer's the
 * app's own, for instance; a layer's tests, what the app's tests may import).
 */
import { TableError, type Layer, type Room, type Tables } from './table.ts';

export interface Group {
  group: string[];
  message: string;
}

export interface Override {
  includes: string[];
  linter: { rules: { style: { noRestrictedImports: { level: 'error'; options: { patterns: Group[] } } } } };
}

const SEE = 'docs/architecture.md, Boundaries';
const SEE_LAYERS = 'docs/architecture.md, Inside src/: the layers';
const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/*.test-support.ts'];

const isFile = (name: string) => /\.[a-z]+$/.test(name);
const withoutExtension = (path: string) => path.replace(/\.(d\.ts|tsx?|mts|mjs|js)$/, '');
const list = (items: string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The import specifiers that name this path (or glob): as written, without its extension, and an index's folder. */
function specifiersOf(path: string): string[] {
  if (path.includes('*')) return [`**/${path}`];
  const bare = withoutExtension(path);
  const forms = new Set([`**/${path}`, `**/${bare}`]);
  if (bare.endsWith('/index')) forms.add(`**/${bare.slice(0, -'/index'.length)}`);
  return [...forms];
}

const rule = (includes: string[], patterns: Group[]): Override => ({
  includes,
  linter: { rules: { style: { noRestrictedImports: { level: 'error', options: { patterns } } } } },
});

/** The groups that keep one top-level folder (or file set) to what its row allows. */
function roomGroups(room: Room, allowed: string[], folders: Map<string, Room>): Group[] {
  const who = room.names.join(', ');
  const reached = new Map<string, { entry: boolean; paths: string[] }>();
  for (const name of allowed) {
    const folder = name.split('/')[0]!;
    if (!folders.has(folder)) throw new TableError(`${who} may import ${name}: no row names the folder ${folder}`);
    const reach = reached.get(folder) ?? { entry: false, paths: [] };
    if (name === folder) {
      if (folders.get(folder)!.entries.length === 0) throw new TableError(`${who} may import ${folder}, which has no entry`);
      reach.entry = true;
    } else reach.paths.push(name);
    reached.set(folder, reach);
  }
  const groups: Group[] = [];
  const refused = [...folders.keys()].filter((folder) => !room.names.includes(folder) && !reached.has(folder));
  if (refused.length) {
    const may = reached.size ? `only ${list([...reached.keys()])}` : 'no other folder of the repository';
    groups.push({ group: refused.map((folder) => `**/${folder}/**`), message: `${who} may import ${may} (${SEE}).` });
  }
  const many = room.names.length > 1;
  for (const [folder, { entry, paths }] of reached) {
    const entries = entry ? folders.get(folder)!.entries.map((file) => `${folder}/${file}`) : [];
    const past = paths.filter((path) => !entries.includes(path));
    const open = [...entries, ...past];
    const through = `through its ${entries.length > 1 ? 'entries' : 'entry'}: ${list(entries)}`;
    const message = entry
      ? `${who} ${many ? 'reach' : 'reaches'} ${folder} only ${through}${past.length ? `; past it only ${list(past)}` : ''} (${SEE}).`
      : `${who} ${many ? 'take' : 'takes'} of ${folder} only ${list(paths)} (${SEE}).`;
    groups.push({ group: [`**/${folder}/**`, ...open.flatMap((path) => specifiersOf(path).map((s) => `!${s}`))], message });
  }
  return groups;
}

/** The test files of folders (`src/profile`: `src/profile/**\/*.test.ts`…). */
const testsOf = (folders: string[]) => folders.flatMap((folder) => TESTS.map((t) => `${folder}/${t}`));

/** The app's groups: for its code, and for its tests (the same when its row gives them nothing more). */
interface AppGroups {
  code: Group[];
  tests: Group[];
}

function roomOverrides(tables: Tables): { overrides: Override[]; app: AppGroups } {
  const folders = new Map<string, Room>();
  for (const room of tables.rooms) for (const name of room.names) if (!isFile(name)) folders.set(name, room);
  const overrides: Override[] = [];
  let app: AppGroups = { code: [], tests: [] };
  for (const room of tables.rooms) {
    const groups = roomGroups(room, room.mayImport, folders);
    const testGroups = room.testsMayImport.length ? roomGroups(room, [...room.mayImport, ...room.testsMayImport], folders) : groups;
    if (room.names.includes('src')) app = { code: groups, tests: testGroups };
    const files = room.names.map((name) => (isFile(name) ? name : `${name}/**`));
    if (room.testsMayImport.length === 0) {
      overrides.push(rule(files, groups));
      continue;
    }
    overrides.push(rule([...files, ...TESTS.map((t) => `!${t}`)], groups));
    overrides.push(rule(testsOf(room.names), testGroups));
  }
  return { overrides, app };
}

const layerFolder = (name: string) => name.replace(/\/\*$/, '');
const layerTarget = (name: string) => (isFile(name) ? [`**/${name}`, `**/${withoutExtension(name)}`] : [`**/${layerFolder(name)}/**`]);

function layerGroups(layer: Layer, layers: Layer[], appGroups: Group[]): Group[] {
  const own = layer.names.map(layerFolder);
  const known = new Set(layers.flatMap((l) => l.names.map(layerFolder)));
  for (const name of layer.mayImport)
    if (!known.has(name)) throw new TableError(`src/${own.join(', ')} may import ${name}: no layer row names it`);
  const refused = layers
    .flatMap((l) => l.names)
    .filter((name) => !own.includes(layerFolder(name)) && !layer.mayImport.includes(layerFolder(name)));
  const who = `src/${own.join(', src/')}`;
  const may = layer.mayImport.length ? `only from ${list(layer.mayImport)}` : 'nothing of the app';
  const groups = [...appGroups];
  if (refused.length)
    groups.push({ group: refused.flatMap(layerTarget), message: `${who} may import ${may}: imports point down (${SEE_LAYERS}).` });
  if (layer.names.some((name) => name.endsWith('/*'))) {
    groups.push({
      group: ['../*/**', '!../../**', '../*', '!../..'],
      message: `A folder of ${who} never imports another: move the shared piece down (${SEE_LAYERS}).`,
    });
  }
  return groups;
}

function layerOf(folder: string, layers: Layer[]): Layer {
  const top = folder.split('/')[0]!;
  const layer = layers.find((l) => l.names.some((name) => name === folder || layerFolder(name) === top));
  if (!layer) throw new TableError(`a slice is kept by ${folder}: no layer row holds it`);
  return layer;
}

export function overridesOf(tables: Tables): Override[] {
  const { overrides, app } = roomOverrides(tables);
  const groupsByLayer = new Map(tables.layers.map((layer) => [layer, layerGroups(layer, tables.layers, app.code)]));
  for (const [layer, groups] of groupsByLayer) {
    const files = layer.names.map((name) => (isFile(name) ? `src/${name}` : `src/${layerFolder(name)}/**`));
    // A file layer (boot.tsx) has no tests inside it; a folder's tests take what the app's tests may.
    const folders = layer.names.filter((name) => !isFile(name)).map((name) => `src/${layerFolder(name)}`);
    if (app.tests === app.code || folders.length === 0) {
      overrides.push(rule(files, groups));
      continue;
    }
    overrides.push(rule([...files, ...TESTS.map((t) => `!${t}`)], groups));
    overrides.push(rule(testsOf(folders), layerGroups(layer, tables.layers, app.tests)));
  }
  const keepers = new Map<string, Group[]>();
  for (const slice of tables.slices) {
    for (const folder of slice.keptBy) {
      const groups = keepers.get(folder) ?? [...groupsByLayer.get(layerOf(folder, tables.layers))!];
      groups.push({
        group: [`**/${slice.folder}/*`, ...specifiersOf(`${slice.folder}/${slice.entry}`).map((s) => `!${s}`)],
        message: `src/${folder} uses ${slice.folder} through its entry, ${slice.folder}/${slice.entry} (${SEE_LAYERS}).`,
      });
      keepers.set(folder, groups);
    }
  }
  // A keeper is a folder (`features/*`: each of its folders), or a file (`boot.tsx`).
  for (const [keeper, groups] of keepers) {
    const files = isFile(keeper) ? `src/${keeper}` : `src/${layerFolder(keeper)}/**`;
    overrides.push(rule([files, ...TESTS.map((t) => `!${t}`)], groups));
  }
  return overrides;
}
