import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The import boundaries biome.jsonc keeps (docs/architecture.md): a file importing against the
 * direction, or past a product's entry, fails `npm run lint`; the same file going through the entry
 * passes. Each case is a one-line module written where it would live, linted with the project's
 * configuration, and removed.
 */
const ROOT = resolve(import.meta.dirname, '..');
const PROBE = `boundary-probe-${process.pid}.ts`;

interface Case {
  folder: string;
  from: string;
  allowed: boolean;
}

const CASES: Case[] = [
  // Between top-level folders: one way only.
  { folder: 'src/lib', from: '../../mock-api/index.ts', allowed: false },
  { folder: 'openapi-kit', from: '../mock-api/index.ts', allowed: false },
  { folder: 'mock-api', from: '../verify/index.ts', allowed: false },
  { folder: 'verify', from: '../testkit/index.ts', allowed: false },
  { folder: 'verify', from: '../openapi-kit/index.ts', allowed: true },
  // Between mock-api/, server/ and oidc/: the API and the provider stand alone; the server goes through their entries.
  { folder: 'mock-api', from: '../server/index.ts', allowed: false },
  { folder: 'oidc', from: '../mock-api/index.ts', allowed: false },
  { folder: 'server', from: '../mock-api/db.ts', allowed: false },
  { folder: 'server', from: '../mock-api/index.ts', allowed: true },
  { folder: 'server', from: '../src/config/page-files.ts', allowed: false },
  { folder: 'server', from: '../src/index.ts', allowed: true },
  // Tools reach a product through its entry.
  { folder: 'bench', from: '../server/server.ts', allowed: false },
  { folder: 'bench', from: '../server/index.ts', allowed: true },
  { folder: 'scripts', from: '../src/config/themes.ts', allowed: false },
  { folder: 'lighthouse', from: '../e2e/support/fixtures.ts', allowed: false },
  // Inside src/: layers point down, the prerender sits on top, the profile screen has one way in.
  { folder: 'src/app', from: '../prerender/pages', allowed: false },
  { folder: 'src/state', from: '../features/home/HomeScreen', allowed: false },
  { folder: 'src/features/profile', from: '../../state/profile/save', allowed: false },
  { folder: 'src/features/profile', from: '../../state/profile', allowed: true },
];

const fileOf = (c: Case, i: number) => join(c.folder, `${i}-${PROBE}`);
let diagnostics: Array<{ category: string; location: { path: string } }> = [];

beforeAll(() => {
  CASES.forEach((c, i) => {
    const file = resolve(ROOT, fileOf(c, i));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `export * from '${c.from}';\n`);
  });
  let output: string;
  try {
    output = execFileSync(
      process.execPath,
      [resolve(ROOT, 'node_modules/@biomejs/biome/bin/biome'), 'lint', '--reporter=json', ...CASES.map(fileOf)],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
  } catch (error) {
    // Exit 1 when a probe is refused: the report is on stdout all the same.
    output = String((error as { stdout?: unknown }).stdout ?? '');
  } finally {
    for (const [i, c] of CASES.entries()) rmSync(resolve(ROOT, fileOf(c, i)), { force: true });
  }
  diagnostics = JSON.parse(output).diagnostics;
}, 60_000);

afterAll(() => {
  for (const [i, c] of CASES.entries()) rmSync(resolve(ROOT, fileOf(c, i)), { force: true });
});

describe('npm run lint keeps the import boundaries', () => {
  it.each(CASES.map((c, i) => [`${c.folder} ← ${c.from}`, i, c] as const))('%s', (_name, i, c) => {
    const refused = diagnostics.filter((d) => d.location.path === fileOf(c, i) && d.category === 'lint/style/noRestrictedImports');
    expect(refused.length > 0).toBe(!c.allowed);
  });
});
