// @vitest-environment node
/**
 * The import boundaries of docs/architecture.md, as `npm run lint` keeps them: biome.jsonc holds
 * the overrides the tables give, and for every row an import the row refuses is refused and one it
 * allows passes. The probes are linted in a folder of their own with the project's biome.jsonc, so
 * the working tree is never written to.
 */
import { execFileSync } from 'node:child_process';
import { trackedFiles } from '../tracked-files.ts';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentConfig, generatedConfig, ROOT, TABLES } from './index.ts';
import { type Probe, probesOf } from './probes.ts';
import { overridesOf } from './rules.ts';
import { readTables, TableError } from './table.ts';

const tables = readTables(readFileSync(resolve(ROOT, TABLES), 'utf8'));
const files = trackedFiles(ROOT);
const probes = probesOf(tables, files);
const place = new Map<Probe, { file: string; line: number }>();
const refusals = new Map<string, string[]>();
let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'boundary-probes-'));
  copyFileSync(resolve(ROOT, 'biome.jsonc'), join(folder, 'biome.jsonc'));
  const lines = new Map<string, string[]>();
  for (const probe of probes) {
    const text = lines.get(probe.file) ?? [];
    text.push(`export * from '${probe.specifier}';`);
    lines.set(probe.file, text);
    place.set(probe, { file: probe.file.replace(/^\.\//, ''), line: text.length });
  }
  for (const [file, text] of lines) {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), `${text.join('\n')}\n`);
  }
  let output: string;
  try {
    output = execFileSync(
      process.execPath,
      [resolve(ROOT, 'node_modules/@biomejs/biome/bin/biome'), 'lint', '--vcs-enabled=false', '--reporter=json', ...lines.keys()],
      { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
  } catch (error) {
    // Exit 1 when a probe is refused: the report is on stdout all the same.
    output = String((error as { stdout?: unknown }).stdout ?? '');
  }
  for (const d of JSON.parse(output).diagnostics as Array<{
    category: string;
    message: string;
    location: { path: string; start: { line: number } };
  }>) {
    if (d.category !== 'lint/style/noRestrictedImports') continue;
    const key = `${d.location.path}:${d.location.start.line}`;
    refusals.set(key, [...(refusals.get(key) ?? []), d.message]);
  }
}, 60_000);

afterAll(() => rmSync(folder, { force: true, recursive: true }));

describe('biome.jsonc', () => {
  it("holds the import boundaries docs/architecture.md's tables give (npm run gen:boundaries)", () => {
    expect(currentConfig()).toBe(generatedConfig());
  });
});

describe('npm run lint keeps the import boundaries', () => {
  it('tries a refused import for every row of the tables', () => {
    const rows = [
      ...tables.rooms.flatMap((room) => [room.names[0], ...(room.testsMayImport.length ? [`${room.names[0]} tests`] : [])]),
      ...tables.layers.map((layer) => `src/${layer.names[0]}`),
      // A folder layer's tests have rules of their own when the app's tests may import more.
      ...(tables.rooms.some((room) => room.names.includes('src') && room.testsMayImport.length)
        ? tables.layers.filter((layer) => !/\.[a-z]+$/.test(layer.names[0]!)).map((layer) => `src/${layer.names[0]} tests`)
        : []),
      ...tables.slices.flatMap((slice) => slice.keptBy.map((keeper) => `src/${keeper} keeps ${slice.folder}`)),
    ];
    expect(rows.filter((row) => !probes.some((p) => p.row === row && p.refused))).toEqual([]);
  });

  it.each(probes.map((p) => [`${p.row}: ${p.specifier} ${p.refused ? 'refused' : 'allowed'}`, p] as const))('%s', (_name, probe) => {
    const { file, line } = place.get(probe)!;
    const messages = refusals.get(`${file}:${line}`) ?? [];
    if (probe.refused) expect(messages).not.toEqual([]);
    else expect(messages).toEqual([]);
  });
});

describe('the tables', () => {
  const base = readFileSync(resolve(ROOT, TABLES), 'utf8');

  it('name only folders that have a row', () => {
    const broken = base.replace('| `scripts` | — | `server`,', '| `scripts` | — | `nowhere`, `server`,');
    expect(() => overridesOf(readTables(broken))).toThrow(new TableError('scripts may import nowhere: no row names the folder nowhere'));
  });

  it('let a folder be reached through its entry only when it has one', () => {
    const broken = base.replace('| `scripts` | — | `server`,', '| `scripts` | — | `e2e`, `server`,');
    expect(() => overridesOf(readTables(broken))).toThrow(new TableError('scripts may import e2e, which has no entry'));
  });
});
