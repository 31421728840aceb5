// `npm test`: every suite in turn, on the production build, with each suite's wall time.
// All suites run even when one fails, so one run tells everything; the exit code says if any failed.
// What failed is also kept short in .cache/test-failures.txt (printed again at the end of CI's log,
// where a long run's first failures would otherwise scroll out of sight).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const node = process.execPath;
const bin = (pkg, file) => resolve(root, 'node_modules', pkg, file);
const FAILURES = resolve(root, '.cache/test-failures.txt');
const E2E_REPORT = resolve(root, 'test-results/e2e.json');

const suites = [
  { name: 'unit', cmd: [node, bin('vitest', 'vitest.mjs'), 'run', '--project', 'unit'] },
  // The contract files in parallel, then the serial group (vitest.config.ts: CONTRACT_SERIAL) alone.
  { name: 'contract', cmd: [node, bin('vitest', 'vitest.mjs'), 'run', '--project', 'contract', '--project', 'contract-serial'] },
  { name: 'build + budgets', cmd: [node, resolve(root, 'scripts/build-and-check-budgets.mjs')] },
  { name: 'e2e + accessibility', cmd: [node, bin('@playwright/test', 'cli.js'), 'test'], env: { CIRCLE_SKIP_BUILD: '1' } },
  { name: 'pwa + lighthouse audit', cmd: [node, resolve(root, 'lighthouse/audit.ts'), '--ci'] },
];

// The lines of a suite's output that say what went wrong, whatever the tool. A passing test's line
// (✓) never does, though its name may hold FAIL; × marks a failure at a line's start only (200×48 is a count).
const PASSED = /^\s*✓/;
const TELLING = /(\bFAIL\b|^\s*[✘×]|\bMISS\b|\bOVER\b|Misses:|^\s*\w*Error:|[0-9]+ (failed|flaky)\b|timed out|budget is exceeded)/;
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Runs a suite with its output passed through, and resolves with its exit code and telling lines. */
function runSuite(suite) {
  return new Promise((done) => {
    const child = spawn(suite.cmd[0], suite.cmd.slice(1), {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MOCK_DELAY_MS: '0', ...(suite.env ?? {}) },
    });
    const telling = [];
    let partial = '';
    const take = (chunk, to) => {
      to.write(chunk);
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const plain = line.replace(ANSI, '').trimEnd();
        if (!PASSED.test(plain) && TELLING.test(plain) && telling.length < 40) telling.push(plain);
      }
    };
    child.stdout.on('data', (c) => take(c, process.stdout));
    child.stderr.on('data', (c) => take(c, process.stderr));
    child.on('close', (code) => done({ code, telling }));
  });
}

/** Failed and flaky e2e tests by name, from Playwright's JSON report. */
function e2eOutcomes() {
  if (!existsSync(E2E_REPORT)) return { failed: [], flaky: [] };
  const report = JSON.parse(readFileSync(E2E_REPORT, 'utf8'));
  const failed = [];
  const flaky = [];
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const name = `${spec.file}:${spec.line} ${spec.title}`;
        const firstError =
          (test.results ?? [])
            .find((r) => r.error)
            ?.error?.message?.replace(ANSI, '')
            .split('\n')[0] ?? '';
        if (test.status === 'unexpected') failed.push(`${name}: ${firstError}`);
        if (test.status === 'flaky') flaky.push(`${name} (passed on retry; first: ${firstError})`);
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  return { failed, flaky };
}

const only = process.argv.slice(2);
const results = [];
const digest = [];
mkdirSync(resolve(root, '.cache'), { recursive: true });
rmSync(FAILURES, { force: true });
for (const suite of suites) {
  if (only.length && !only.some((o) => suite.name.startsWith(o))) continue;
  console.log(`\n=== ${suite.name} ===`);
  const started = Date.now();
  const { code, telling } = await runSuite(suite);
  const ok = code === 0;
  results.push({ suite: suite.name, ok, seconds: Math.round((Date.now() - started) / 100) / 10 });
  if (suite.name.startsWith('e2e')) {
    spawnSync(node, [resolve(root, 'scripts/e2e-times.mjs')], { cwd: root, stdio: 'inherit' });
    const { failed, flaky } = e2eOutcomes();
    for (const line of flaky) digest.push(`e2e flaky: ${line}`);
    if (!ok) digest.push(...(failed.length ? failed.map((line) => `e2e failed: ${line}`) : telling.map((line) => `e2e: ${line}`)));
  } else if (!ok) {
    digest.push(...(telling.length ? telling : ['(no telling line; see the suite output above)']).map((line) => `${suite.name}: ${line}`));
  }
}

const total = results.reduce((s, r) => s + r.seconds, 0);
console.log('\nsuite                      result  wall time');
for (const r of results) console.log(`${r.suite.padEnd(26)} ${(r.ok ? 'pass' : 'FAIL').padEnd(7)} ${r.seconds.toFixed(1)} s`);
console.log(`${'total'.padEnd(34)} ${total.toFixed(1)} s`);
writeFileSync(resolve(root, '.cache/test-times.json'), JSON.stringify({ at: new Date().toISOString(), results, total }, null, 2));
if (digest.length) {
  const text = `${digest.join('\n')}\n`;
  writeFileSync(FAILURES, text);
  console.log(`\nwhat failed or was flaky:\n${text}`);
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
