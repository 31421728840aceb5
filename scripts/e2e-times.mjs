// Where the e2e time goes: per spec file, the tests, their summed duration and the slowest test,
// read from Playwright's JSON report (test-results/e2e.json).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const file = resolve(import.meta.dirname, '../test-results/e2e.json');
if (!existsSync(file)) {
  console.log('no e2e report at test-results/e2e.json');
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const files = new Map();
const visit = (suite, path) => {
  for (const spec of suite.specs ?? []) {
    const entry = files.get(path) ?? { tests: 0, ms: 0, slowest: { ms: 0, title: '' } };
    for (const test of spec.tests ?? []) {
      const ms = (test.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
      entry.tests++;
      entry.ms += ms;
      if (ms > entry.slowest.ms) entry.slowest = { ms, title: spec.title };
    }
    files.set(path, entry);
  }
  for (const child of suite.suites ?? []) visit(child, child.file ?? path);
};
for (const suite of report.suites ?? []) visit(suite, suite.file ?? suite.title);
const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
const total = rows.reduce((sum, [, e]) => sum + e.ms, 0);
console.log('\ne2e file                      tests   test time  slowest test');
for (const [name, e] of rows) {
  const slowest = e.slowest.title.length > 60 ? `${e.slowest.title.slice(0, 57)}...` : e.slowest.title;
  console.log(
    `${name.padEnd(28)} ${String(e.tests).padStart(6)} ${`${(e.ms / 1000).toFixed(1)} s`.padStart(11)}  ${(e.slowest.ms / 1000).toFixed(1)} s ${slowest}`,
  );
}
console.log(
  `${'all'.padEnd(28)} ${String(rows.reduce((s, [, e]) => s + e.tests, 0)).padStart(6)} ${`${(total / 1000).toFixed(1)} s`.padStart(11)}  (summed over workers; wall time is less)`,
);
