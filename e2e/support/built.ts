import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DIST } from './global-setup.ts';

/** The address the build gave a module of src/, found by its file name (e.g. 'transport.ts') in Vite's manifest. */
export function builtUrl(fileName: string): string {
  const manifest = JSON.parse(readFileSync(resolve(DIST, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
  const found = Object.entries(manifest).filter(([source]) => source.endsWith(`/${fileName}`));
  if (found.length !== 1) throw new Error(`${found.length} modules of the build are named ${fileName}`);
  return `/${found[0]![1].file}`;
}
