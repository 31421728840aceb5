// Where the e2e time goes: per spec file, the tests, their summed duration, their summed CPU time
// and the slowest test, read from Playwright's JSON report (test-results/e2e.json). The CPU time
// (the worker's process tree: its mock server, its Chromium; e2e/support/cpu.ts) is what a test
// costs whatever else the machine is doing; the duration grows with the machine's load.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const file = resolve(import.meta.dirname, '../test-results/e2e.json');
if (!existsSync(file)) {
  console.log('no e2e report at test-results/e2e.json');
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const cpuOf = (result) => Number((result.annotations ?? []).find((a) => a.type === 'cpu-ms')?.description ?? Number.NaN);
const files = new Map();
const visit = (suite, path) => {
  for (const spec of suite.specs ?? []) {
    const entry = files.get(path) ?? { tests: 0, ms: 0, cpu: 0, slowest: { ms: 0, title: '' } };
    for (const test of spec.tests ?? []) {
      const results = test.results ?? [];
      const ms = results.reduce((sum, r) => sum + (r.duration ?? 0), 0);
      entry.tests++;
      entry.ms += ms;
      entry.cpu += results.reduce((sum, r) => sum + (cpuOf(r) || 0), 0);
      if (ms > entry.slowest.ms) entry.slowest = { ms, title: spec.title };
    }
    files.set(path, entry);
  }
  for (const child of suite.suites ?? []) visit(child, child.file ?? path);
};
for (const suite of report.suites ?? []) visit(suite, suite.file ?? suite.title);
const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
const sum = (key) => rows.reduce((s, [, e]) => s + e[key], 0);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(`\n${'e2e file'.padEnd(28)}  tests   test time    CPU time  slowest test`);
for (const [name, e] of rows) {
  const slowest = e.slowest.title.length > 60 ? `${e.slowest.title.slice(0, 57)}...` : e.slowest.title;
  console.log(
    `${name.padEnd(28)} ${String(e.tests).padStart(6)} ${seconds(e.ms).padStart(11)} ${seconds(e.cpu).padStart(11)}  ${seconds(e.slowest.ms)} ${slowest}`,
  );
}
console.log(
  `${'all'.padEnd(28)} ${String(sum('tests')).padStart(6)} ${seconds(sum('ms')).padStart(11)} ${seconds(sum('cpu')).padStart(11)}  (summed over workers; wall time is less)`,
);
