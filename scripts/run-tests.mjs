// `npm test`: every suite in turn, on the production build, with each suite's wall time.
// All suites run even when one fails, so one run tells everything; the exit code says if any failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const node = process.execPath;
const bin = (pkg, file) => resolve(root, 'node_modules', pkg, file);

const suites = [
  { name: 'unit', cmd: [node, bin('vitest', 'vitest.mjs'), 'run', '--project', 'unit'] },
  { name: 'contract', cmd: [node, bin('vitest', 'vitest.mjs'), 'run', '--project', 'contract'] },
  { name: 'build + budgets', cmd: [node, resolve(root, 'scripts/build-and-check-budgets.mjs')] },
  { name: 'e2e + accessibility', cmd: [node, bin('@playwright/test', 'cli.js'), 'test'], env: { CIRCLE_SKIP_BUILD: '1' } },
  { name: 'pwa + lighthouse audit', cmd: [node, bin('tsx', 'dist/cli.mjs'), resolve(root, 'lighthouse/audit.ts'), '--ci'] },
];

const only = process.argv.slice(2);
const results = [];
for (const suite of suites) {
  if (only.length && !only.some((o) => suite.name.startsWith(o))) continue;
  console.log(`\n=== ${suite.name} ===`);
  const started = Date.now();
  const run = spawnSync(suite.cmd[0], suite.cmd.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MOCK_DELAY_MS: '0', ...(suite.env ?? {}) },
  });
  results.push({ suite: suite.name, ok: run.status === 0, seconds: Math.round((Date.now() - started) / 100) / 10 });
  if (suite.name.startsWith('e2e')) spawnSync(node, [resolve(root, 'scripts/e2e-times.mjs')], { cwd: root, stdio: 'inherit' });
}

const total = results.reduce((s, r) => s + r.seconds, 0);
console.log('\nsuite                      result  wall time');
for (const r of results) console.log(`${r.suite.padEnd(26)} ${(r.ok ? 'pass' : 'FAIL').padEnd(7)} ${r.seconds.toFixed(1)} s`);
console.log(`${'total'.padEnd(34)} ${total.toFixed(1)} s`);
mkdirSync(resolve(root, '.cache'), { recursive: true });
writeFileSync(resolve(root, '.cache/test-times.json'), JSON.stringify({ at: new Date().toISOString(), results, total }, null, 2));
process.exit(results.every((r) => r.ok) ? 0 : 1);
