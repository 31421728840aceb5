/**
 * `npm run gen:boundaries`: writes the import boundaries of docs/architecture.md's tables into
 * biome.jsonc's overrides. `node scripts/boundaries/index.ts --check` (part of `npm run lint`)
 * fails when biome.jsonc holds other overrides than the tables give.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { overridesOf } from './rules.ts';
import { readTables } from './table.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const TABLES = 'docs/architecture.md';
const CONFIG = 'biome.jsonc';
const BANNER = [
  '  // The import boundaries, generated from the tables of docs/architecture.md (Boundaries; Inside',
  '  // src/: the layers) by `npm run gen:boundaries`: change the tables, not these overrides.',
];

/** The configuration with its overrides (the last key, after the banner or the comments above it) replaced. */
function withOverrides(config: string, overrides: unknown): string {
  const at = config.search(/^ {2}"overrides":/m);
  if (at < 0) throw new Error(`${CONFIG} has no "overrides" key at the top level`);
  const lines = config.slice(0, at).split('\n');
  lines.pop();
  while (lines.at(-1)?.startsWith('  //')) lines.pop();
  const head = lines.join('\n').replace(/,?\s*$/, ',');
  return `${head}\n${BANNER.join('\n')}\n  "overrides": ${JSON.stringify(overrides)}\n}\n`;
}

const biome = resolve(ROOT, 'node_modules/@biomejs/biome/bin/biome');
const format = (text: string) =>
  execFileSync(process.execPath, [biome, 'format', `--stdin-file-path=${CONFIG}`], { cwd: ROOT, input: text, encoding: 'utf8' });

/** biome.jsonc as the tables make it, formatted as Biome formats it. */
export function generatedConfig(): string {
  const tables = readTables(readFileSync(resolve(ROOT, TABLES), 'utf8'));
  return format(withOverrides(readFileSync(resolve(ROOT, CONFIG), 'utf8'), overridesOf(tables)));
}

export const currentConfig = () => readFileSync(resolve(ROOT, CONFIG), 'utf8');

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const generated = generatedConfig();
  if (process.argv.includes('--check')) {
    if (generated !== currentConfig()) {
      console.error(`${CONFIG}'s import boundaries differ from the tables of ${TABLES}: run npm run gen:boundaries.`);
      process.exit(1);
    }
  } else {
    writeFileSync(resolve(ROOT, CONFIG), generated);
    console.log(`${CONFIG}: the import boundaries of ${TABLES} written.`);
  }
}
