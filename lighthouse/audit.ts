/**
 * `npm run audit:pwa`: the PWA audit Lighthouse no longer has, plus Lighthouse's categories.
 *
 * 1. Installability over CDP (Page.getInstallabilityErrors, Page.getAppManifest), a controlling
 *    service worker, and an offline reload of every route (the server drops every connection).
 * 2. Lighthouse on mobile (default throttling), median of N runs, checked against budget.json.
 *
 * It prints a report and writes lighthouse/reports/summary.json; with --ci it exits 1 on a miss.
 * The figures a machine's speed moves (performance, LCP, TBT) are printed against their marks and
 * never fail it: a busy machine would fail a sound build. `npm run bench` holds the speed budgets.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServer } from '../server/index.ts';
import { runLighthouse } from './lighthouse-run.ts';
import { auditPwa } from './pwa.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ci = process.argv.includes('--ci');
const runsArg = process.argv.find((a) => a.startsWith('--runs='));
const RUNS = runsArg ? Number(runsArg.slice(7)) : 3;

/** A row's verdict: a timed figure past its mark is SLOW, a failure is MISS. */
function mark(ok: boolean, timed: boolean): string {
  if (ok) return 'ok  ';
  return timed ? 'SLOW' : 'MISS';
}

interface Marks {
  categories: Record<string, number>;
  metrics: Record<string, number>;
}
interface Budget extends Marks {
  /** Marks of what the machine's speed moves: printed, never a failure. */
  timed: Marks;
}
/** budget.json with each part it leaves out empty (nothing checked there). */
function readBudget(): Budget {
  const raw = JSON.parse(readFileSync(resolve(import.meta.dirname, 'budget.json'), 'utf8')) as Partial<Budget>;
  const marks = (m: Partial<Marks> | undefined): Marks => ({ categories: m?.categories ?? {}, metrics: m?.metrics ?? {} });
  return { ...marks(raw), timed: marks(raw.timed) };
}
const budget = readBudget();

async function main() {
  const server = await startServer({ port: 0, delayMs: 0, distDir: resolve(ROOT, process.env.DIST_DIR ?? 'dist') });
  const misses: string[] = [];
  /** Timed figures past their marks: told, not failed. */
  const slow: string[] = [];
  try {
    const pwa = await auditPwa(server);
    console.log('\nPWA audit');
    console.log(`  manifest                 ${pwa.manifestUrl ?? 'none'}`);
    console.log(`  installability errors    ${pwa.installabilityErrors.length} ${pwa.installabilityErrors.join('; ')}`);
    console.log(`  manifest errors          ${pwa.manifestErrors.length} ${pwa.manifestErrors.join('; ')}`);
    console.log(`  service worker controls  ${pwa.serviceWorkerControls ? 'yes' : 'NO'}`);
    const offline = pwa.offlineRoutes.filter((r) => r.rendered).length;
    console.log(`  routes rendered offline  ${offline}/${pwa.offlineRoutes.length}`);
    for (const r of pwa.offlineRoutes) if (!r.rendered) console.log(`    not rendered offline: ${r.path}`);
    if (pwa.installabilityErrors.length) misses.push('installability errors');
    if (pwa.manifestErrors.length) misses.push('manifest errors');
    if (!pwa.manifestUrl) misses.push('no manifest');
    if (!pwa.serviceWorkerControls) misses.push('no controlling service worker');
    if (offline !== pwa.offlineRoutes.length) misses.push('routes not rendered offline');

    const lh = await runLighthouse(`${server.url}/`, RUNS);
    console.log(`\nLighthouse (mobile, median of ${RUNS})`);
    for (const [category, score] of Object.entries(lh.median.categories)) {
      const timed = budget.timed.categories[category] !== undefined;
      const min = (timed ? budget.timed.categories[category] : budget.categories[category]) ?? 0;
      const ok = score >= min;
      if (!ok) (timed ? slow : misses).push(`${category} ${score} < ${min}`);
      const failed = lh.median.failedAudits[category]?.join(', ');
      console.log(
        `  ${mark(ok, timed)} ${category.padEnd(16)} ${String(score).padStart(3)}  (min ${min})${failed ? `  below 1: ${failed}` : ''}`,
      );
    }
    const m = lh.median.metrics;
    const metricRows: [string, number, string][] = [
      ['lcp', m.lcp, `${Math.round(m.lcp)} ms`],
      ['tbt', m.tbt, `${Math.round(m.tbt)} ms`],
      ['cls', m.cls, m.cls.toFixed(3)],
      ['fcp', m.fcp, `${Math.round(m.fcp)} ms`],
    ];
    for (const [name, value, shown] of metricRows) {
      const timed = budget.timed.metrics[name] !== undefined;
      const max = timed ? budget.timed.metrics[name] : budget.metrics[name];
      const ok = max === undefined || value <= max;
      if (!ok) (timed ? slow : misses).push(`${name} ${shown} over ${max}`);
      console.log(`  ${mark(ok, timed)} ${name.padEnd(16)} ${shown}${max !== undefined ? `  (max ${max})` : ''}`);
    }
    mkdirSync(resolve(import.meta.dirname, 'reports'), { recursive: true });
    writeFileSync(resolve(import.meta.dirname, 'reports/summary.json'), JSON.stringify({ pwa, lighthouse: lh, misses, slow }, null, 2));
  } finally {
    await server.close();
  }
  if (slow.length) console.log(`\nSlower than their marks on this machine (not a failure; npm run bench judges speed): ${slow.join('; ')}`);
  if (misses.length) {
    console.log(`\nMisses: ${misses.join('; ')}`);
    if (ci) process.exit(1);
  } else {
    console.log('\nEvery check passed.');
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'audit.ts')) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
