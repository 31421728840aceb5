// Builds the app for production and fails when a size budget (budgets.json) is exceeded.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundleFigures } from '../testkit/index.ts';

const root = resolve(import.meta.dirname, '..');
execFileSync(process.execPath, [resolve(root, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: root, stdio: 'inherit' });

const budgets = JSON.parse(readFileSync(resolve(root, 'budgets.json'), 'utf8'));
const f = bundleFigures(resolve(root, 'dist'));
const rows = [
  ['first load JS+CSS (gzip)', f.firstLoad.gzip, budgets.firstLoadGzip],
  ["first load JS, the app's own (gzip, React apart)", f.firstLoad.appJs, budgets.firstLoadAppJsGzip],
  [`largest lazy chunk (gzip, ${f.largestLazyChunk.file})`, f.largestLazyChunk.gzip, budgets.largestLazyChunkGzip],
  [`precache (${f.precache.entries} entries)`, f.precache.bytes, budgets.precacheBytes],
  ['sign-in client, on demand (gzip)', f.signInClient.gzip, budgets.signInClientGzip],
];
let failed = false;
console.log('\nbudget                                              bytes     limit      goal');
for (const [name, value, budget] of rows) {
  const over = value > budget.limit;
  failed ||= over;
  console.log(
    `${over ? 'OVER' : 'ok  '} ${name.padEnd(46)} ${String(value).padStart(8)} ${String(budget.limit).padStart(9)} ${String(budget.goal).padStart(9)}`,
  );
}
if (failed) {
  console.error('\nA size budget is exceeded (budgets.json).');
  process.exit(1);
}
