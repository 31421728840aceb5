// `npm run test:mutation [-- PATH…]`: StrykerJS on src/, mock-api/, server/, oidc/ and openapi-kit/ (or only the folders or files
// named, e.g. `-- src/lib src/config src/boot.tsx`), incremental (.cache/stryker-incremental.json), then the score per
// folder. The HTML report is reports/mutation/index.html.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const paths = process.argv.slice(2);
for (const path of paths) {
  if (!/^(src|mock-api|server|oidc|openapi-kit)(\/[\w.-]+)*$/.test(path) || !existsSync(resolve(root, path))) {
    console.error(`Not a folder or file of src/, mock-api/, server/, oidc/ or openapi-kit/: ${path}`);
    process.exit(2);
  }
}
const isFile = (path) => statSync(resolve(root, path)).isFile();
// Stryker's own globs, narrowed to the folders and files asked for; tests and generated code never mutate.
// (No braces: the command line splits the list on commas.)
const mutate = paths.length
  ? [
      ...paths.flatMap((p) => (isFile(p) ? [p] : [`${p}/**/*.ts`, `${p}/**/*.tsx`])),
      '!**/*.test.ts',
      '!**/*.test.tsx',
      '!src/test/**',
      '!src/api/schema.d.ts',
      '!src/pwa/sw.ts',
      '!src/prerender/render-page.tsx',
      '!mock-api/browser.ts',
      // Checked by the compiler (a call that must not compile), never run.
      '!mock-api/**/*.typecheck.ts',
      // What tests share (a server per describe block, a model's set-up, a sample document) is test code.
      '!**/*.test-support.ts',
    ]
  : [];
const args = [
  resolve(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
  'run',
  ...(mutate.length ? ['--mutate', mutate.join(',')] : []),
];
const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
const scores = spawnSync(process.execPath, [resolve(root, 'scripts/mutation-scores.mjs'), ...paths], { cwd: root, stdio: 'inherit' });
process.exit(scores.status ?? 1);
