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
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer, type RunningServer } from '../server/index.ts';
import { routesFor } from '../testkit/index.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';

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

// Audited signed out: the screens that need a session ask for one, offline too.
export const AUDITED_ROUTES = routesFor('signedOut');

export interface PwaAudit {
  installabilityErrors: string[];
  manifestErrors: string[];
  manifestUrl: string | null;
  serviceWorkerControls: boolean;
  offlineRoutes: { path: string; rendered: boolean }[];
}

/** Installability and offline behaviour, in a persistent profile (incognito is never installable). */
export async function auditPwa(server: RunningServer): Promise<PwaAudit> {
  const profile = mkdtempSync(join(tmpdir(), 'circle-pwa-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/home`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    let serviceWorkerControls = true;
    try {
      await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, { timeout: 20_000 });
    } catch {
      serviceWorkerControls = false;
    }
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string; errorArguments: { name: string; value: string }[] }[];
    };
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[] };

    // Signed out (the e2e suite reloads every route offline signed in: e2e/pwa.spec.ts).
    server.setReachable(false);
    const offlineRoutes: PwaAudit['offlineRoutes'] = [];
    for (const route of AUDITED_ROUTES) {
      let rendered = false;
      try {
        await page.goto(`${server.url}${route.path}`, { timeout: 10_000 });
        const heading = page.getByRole('heading', { level: 1 });
        await heading.waitFor({ timeout: 10_000 });
        rendered = (await heading.textContent())?.trim() === route.heading;
      } catch {
        rendered = false;
      }
      offlineRoutes.push({ path: route.path, rendered });
    }
    server.setReachable(true);
    return {
      installabilityErrors: installabilityErrors.map((e) => [e.errorId, ...e.errorArguments.map((a) => `${a.name}=${a.value}`)].join(' ')),
      manifestErrors: manifest.errors.map((e) => e.message),
      manifestUrl: manifest.url || null,
      serviceWorkerControls,
      offlineRoutes,
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

export interface LighthouseRun {
  categories: Record<string, number>;
  metrics: { lcp: number; tbt: number; cls: number; fcp: number; si: number };
  /** The paints as the unthrottled page made them, before Lighthouse's simulation. */
  observed: { fcp: number; lcp: number };
  /** The element of the largest contentful paint: its selector and its text (or markup). */
  lcpElement: string | null;
  failedAudits: Record<string, string[]>;
  /** Why Lighthouse measured nothing (its runtime error, or no paint found); null when it did. */
  error: string | null;
}

/**
 * Told of each browser a function starts, with what closes it; gives back what forgets it once it
 * is closed. (bench closes what it started when it is stopped part way.)
 */
export type TrackBrowser = (close: () => void) => () => void;

interface LcpElementItem {
  type?: string;
  selector?: string;
  nodeLabel?: string;
  snippet?: string;
}

/** The largest paint's element as Lighthouse's LCP breakdown names it. */
function lcpElementOf(audit: { details?: unknown } | undefined): string | null {
  const items = (audit?.details as { items?: LcpElementItem[] } | undefined)?.items ?? [];
  const node = items.find((item) => item.type === 'node');
  if (!node) return null;
  const text = (node.nodeLabel ?? node.snippet ?? '').replace(/\s+/g, ' ').trim();
  return `${node.selector ?? '?'}${text ? ` "${text.length > 40 ? `${text.slice(0, 39)}…` : text}"` : ''}`;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

function mostFrequent<T>(values: readonly T[]): T {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/** Lighthouse, mobile form factor with its default simulated throttling. */
export async function runLighthouse(
  url: string,
  runs: number,
  track?: TrackBrowser,
): Promise<{ runs: LighthouseRun[]; median: LighthouseRun }> {
  const options = { chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent' } as const;
  let chrome: { port: number; kill: () => void };
  let forget: () => void = () => undefined;
  if (track) {
    // Told of before it is spawned, so that a stop during the launch closes it too: chrome-launcher
    // starts Chrome in a process group of its own, which outlives a caller that just exits.
    const launcher = new chromeLauncher.Launcher(options);
    forget = track(() => launcher.kill());
    try {
      await launcher.launch();
    } catch (error) {
      launcher.kill();
      forget();
      throw error;
    }
    chrome = { port: launcher.port!, kill: () => launcher.kill() };
  } else {
    // Alone (npm run audit:pwa), chrome-launcher closes it on Ctrl-C itself.
    chrome = await chromeLauncher.launch(options);
  }
  const results: LighthouseRun[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      if (!result) throw new Error('Lighthouse returned no result');
      const lhr = result.lhr;
      const categories = Object.fromEntries(Object.entries(lhr.categories).map(([k, c]) => [k, Math.round((c.score ?? 0) * 100)]));
      const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const observed = (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0] ?? {};
      const failedAudits: Record<string, string[]> = {};
      for (const [key, category] of Object.entries(lhr.categories)) {
        failedAudits[key] = category.auditRefs.filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => ref.id);
      }
      results.push({
        categories,
        metrics: {
          lcp: numeric('largest-contentful-paint'),
          tbt: numeric('total-blocking-time'),
          cls: numeric('cumulative-layout-shift'),
          fcp: numeric('first-contentful-paint'),
          si: numeric('speed-index'),
        },
        observed: {
          fcp: observed.observedFirstContentfulPaint ?? Number.NaN,
          lcp: observed.observedLargestContentfulPaint ?? Number.NaN,
        },
        lcpElement: lcpElementOf(lhr.audits['lcp-breakdown-insight']),
        failedAudits,
        error:
          lhr.runtimeError?.message ??
          (Number.isFinite(numeric('first-contentful-paint')) && Number.isFinite(numeric('largest-contentful-paint'))
            ? null
            : 'no first or largest contentful paint measured'),
      });
      mkdirSync(resolve(import.meta.dirname, 'reports'), { recursive: true });
      writeFileSync(resolve(import.meta.dirname, `reports/run-${i + 1}.json`), result.report as string);
    }
  } finally {
    chrome.kill();
    forget();
  }
  // A run that measured nothing (a runtime error on a busy machine) is left out of the median.
  const measured = results.some((r) => !r.error) ? results.filter((r) => !r.error) : results;
  const keys = Object.keys(measured[0]!.categories);
  const med: LighthouseRun = {
    categories: Object.fromEntries(keys.map((k) => [k, median(measured.map((r) => r.categories[k]!))])),
    metrics: {
      lcp: median(measured.map((r) => r.metrics.lcp)),
      tbt: median(measured.map((r) => r.metrics.tbt)),
      cls: median(measured.map((r) => r.metrics.cls)),
      fcp: median(measured.map((r) => r.metrics.fcp)),
      si: median(measured.map((r) => r.metrics.si)),
    },
    observed: {
      fcp: median(measured.map((r) => r.observed.fcp)),
      lcp: median(measured.map((r) => r.observed.lcp)),
    },
    // The element most runs found (a tie goes to the first run's).
    lcpElement: mostFrequent(measured.map((r) => r.lcpElement)),
    failedAudits: measured[0]!.failedAudits,
    error: measured[0]!.error,
  };
  return { runs: measured, median: med };
}

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
