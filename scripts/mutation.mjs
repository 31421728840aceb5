// `npm run test:mutation [-- FOLDER…]`: StrykerJS on src/ and mocks/ (or only the folders named,
// e.g. `-- src/lib src/config`), incremental (.cache/stryker-incremental.json), then the score per
// folder. The HTML report is reports/mutation/index.html.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const folders = process.argv.slice(2);
for (const folder of folders) {
  if (!/^(src|mocks)(\/[\w-]+)*$/.test(folder) || !existsSync(resolve(root, folder))) {
    console.error(`Not a folder of src/ or mocks/: ${folder}`);
    process.exit(2);
  }
}
// Stryker's own globs, narrowed to the folders asked for; tests and generated code never mutate.
// (No braces: the command line splits the list on commas.)
const mutate = folders.length
  ? [
      ...folders.flatMap((f) => [`${f}/**/*.ts`, `${f}/**/*.tsx`]),
      '!**/*.test.ts',
      '!**/*.test.tsx',
      '!src/test/**',
      '!src/api/schema.d.ts',
      '!src/pwa/sw.ts',
      '!src/prerender/render-page.tsx',
      '!mocks/browser.ts',
    ]
  : [];
const args = [
  resolve(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
  'run',
  ...(mutate.length ? ['--mutate', mutate.join(',')] : []),
];
const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
const scores = spawnSync(process.execPath, [resolve(root, 'scripts/mutation-scores.mjs'), ...folders], { cwd: root, stdio: 'inherit' });
process.exit(scores.status ?? 1);
