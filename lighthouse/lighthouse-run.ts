/** Lighthouse's categories and paints on one URL, the median of several runs: the audit's and bench's. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';

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
type TrackBrowser = (close: () => void) => () => void;

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
