/**
 * `npm run bench`: builds for production, serves the build and measures it. It reports; it
 * never fails on speed. Prints a table and writes bench/results.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { chromium } from '@playwright/test';
import { startServer, type RunningServer } from '../mocks/server/index.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';
import { runLighthouse } from '../lighthouse/audit.ts';
import { startServerProcess, tinyBuild } from '../testkit/index.ts';
import { freePort, signInAs } from '../testkit/index.ts';
// @ts-expect-error: a plain .mjs module without type declarations, shared with the budget check.
import { bundleFigures } from '../scripts/bundle-figures.mjs';
import { measureLongTasks } from './long-tasks.ts';
import { printFigures, writeHtmlReport, type Figure } from './report.ts';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(ROOT, 'dist');
const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');

/** A full garbage collection, so heap figures compare live memory only. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface FirstLoad {
  requests: number;
  jsCssTransferred: number;
  jsCssRequests: number;
  /** Every JS and CSS file fetched once the page is idle (the prefetch of other screens included), gzip. */
  idleJsCssGzip: number;
  idleJsCssFiles: number;
}

/** The routes whose first screen is prerendered and hydrated: Lighthouse and the long tasks run on each. */
const ROUTES = ['/home', '/settings', '/dashboard'];

/** What a first visit to '/' downloads until the home screen has rendered, measured in the browser. */
async function measureFirstLoad(server: RunningServer): Promise<FirstLoad> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    // The moment the app has rendered its first screen (the heading is already in the prerendered
    // HTML: the app's own event says when its code has hydrated it): requests started before it are
    // the first load; the idle prefetch of other screens comes after.
    await page.addInitScript(
      `addEventListener('circle:first-screen', () => { window.__renderedAt = performance.now(); }, { once: true });`,
    );
    await page.goto(`${server.url}/`);
    // A function, not a string: the page's CSP forbids evaluating strings.
    await page.waitForFunction(() => (window as unknown as { __renderedAt?: number }).__renderedAt !== undefined);
    const first = (await page.evaluate(`(() => {
      const before = performance.getEntriesByType('resource').filter((e) => e.startTime <= window.__renderedAt);
      const jsCss = before.filter((e) => /\\.(js|css)$/.test(new URL(e.name).pathname));
      return {
        requests: before.length + 1,
        jsCssRequests: jsCss.length,
        jsCssTransferred: jsCss.reduce((sum, e) => sum + e.encodedBodySize, 0),
      };
    })()`)) as Omit<FirstLoad, 'idleJsCssGzip' | 'idleJsCssFiles'>;
    // The idle prefetch: the app fetches the other screens once the first one is up and the page idle.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(2000);
    const paths = (await page.evaluate(`[...new Set(performance.getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname).filter((p) => /\\.(js|css)$/.test(p)))]`)) as string[];
    const idleJsCssGzip = paths.reduce((sum, path) => sum + gzipSync(readFileSync(join(DIST, path)), { level: 9 }).length, 0);
    return { ...first, idleJsCssGzip, idleJsCssFiles: paths.length };
  } finally {
    await browser.close();
  }
}

/** Repeat visits served by the service worker: FCP and DOMContentLoaded, median of `runs`. */
async function measureWarmLoads(server: RunningServer, runs: number) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, { timeout: 20_000 });
    const fcp: number[] = [];
    const dcl: number[] = [];
    for (let i = 0; i < runs; i++) {
      await page.goto(`${server.url}/home`, { waitUntil: 'load' });
      await page.getByRole('heading', { level: 1 }).waitFor();
      // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
      const timing = (await page.evaluate(`new Promise((done) => {
        const nav = performance.getEntriesByType('navigation')[0];
        const poll = () => {
          const paint = performance.getEntriesByName('first-contentful-paint')[0];
          if (!paint) return requestAnimationFrame(poll);
          done({ fcp: paint.startTime, dcl: nav.domContentLoadedEventEnd, viaWorker: nav.workerStart > 0 });
        };
        poll();
      })`)) as { fcp: number; dcl: number; viaWorker: boolean };
      if (!timing.viaWorker) throw new Error('A warm load was not served by the service worker');
      fcp.push(timing.fcp);
      dcl.push(timing.dcl);
    }
    return { fcp: median(fcp), dcl: median(dcl), runs };
  } finally {
    await browser.close();
  }
}

interface LoadResult {
  target: string;
  connections: number;
  seconds: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  heapGrowthMb?: number;
}

async function load(url: string, connections: number, seconds: number): Promise<LoadResult> {
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1 });
  return {
    target: new URL(url).pathname,
    connections,
    seconds,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** One server's figures on one request: what `load` measures, named by server and request. */
type ThroughputResult = Omit<LoadResult, 'target' | 'heapGrowthMb'> & { server: string; request: string };

/**
 * The mock API's throughput, each server in its own process as `npm run serve` runs it: a GET of
 * a list and a create followed by its delete, with --persist off and on (every change written
 * and flushed to the disk before it is answered), beside Prism's mock (`npm run prism`) on the
 * same GET. Each figure is requests answered per second (a POST and its DELETE are two).
 */
async function measureMockThroughput(seconds: number): Promise<ThroughputResult[]> {
  const build = tinyBuild();
  const dbFile = join(mkdtempSync(join(tmpdir(), 'circle-bench-persist-')), 'db.json');
  const plain = await startServerProcess([], { DIST_DIR: build });
  const persisting = await startServerProcess(['--persist', dbFile], { DIST_DIR: build });
  const prismPort = await freePort();
  const prism = spawn(
    process.execPath,
    [resolve(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js'), 'mock', 'openapi.yaml', '-h', '127.0.0.1', '-p', String(prismPort)],
    {
      cwd: ROOT,
      env: { ...process.env, SCARF_ANALYTICS: 'false' },
      stdio: 'ignore',
    },
  );
  const prismUrl = `http://127.0.0.1:${prismPort}`;
  try {
    for (let waited = 0; ; waited += 200) {
      if (
        await fetch(`${prismUrl}/accounts`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (waited > 30_000) throw new Error("Prism's mock did not start within 30 s");
      await new Promise((r) => setTimeout(r, 200));
    }
    const notification = JSON.stringify({ title: 'Bench', body: '', level: 'info', read: false, createdAt: '2026-11-23T10:00:00Z' });
    type Context = { id?: string };
    // Notifications are written by the admin (ada), signed in at each server's own provider.
    const createThenDelete = async (server: { url: string }): Promise<autocannon.Request[]> => {
      const { authorization } = await signInAs(server.url, 'ada');
      return [
        {
          method: 'POST',
          path: '/api/notifications',
          headers: { 'content-type': 'application/json', authorization },
          body: notification,
          onResponse: (_status, body, context) => {
            (context as Context).id = (JSON.parse(body) as { id: string }).id;
          },
        },
        {
          method: 'DELETE',
          headers: { authorization },
          setupRequest: (request, context) => ({ ...request, path: `/api/notifications/${(context as Context).id}` }),
        },
      ];
    };
    const measure = async (server: string, request: string, url: string, connections: number, requests?: autocannon.Request[]) => {
      const result = await autocannon({ url, connections, duration: seconds, pipelining: 1, ...(requests ? { requests } : {}) });
      return {
        server,
        request,
        connections,
        seconds,
        requestsPerSecond: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
      };
    };
    return [
      await measure('mock', 'GET /api/accounts', `${plain.url}/api/accounts`, 50),
      await measure('mock --persist', 'GET /api/accounts', `${persisting.url}/api/accounts`, 50),
      await measure('Prism mock', 'GET /accounts', `${prismUrl}/accounts`, 50),
      await measure('mock', 'POST+DELETE /api/notifications', plain.url, 10, await createThenDelete(plain)),
      await measure('mock --persist', 'POST+DELETE /api/notifications', persisting.url, 10, await createThenDelete(persisting)),
    ];
  } finally {
    prism.kill('SIGTERM');
    await Promise.all([plain.kill('SIGTERM'), persisting.kill('SIGTERM')]);
  }
}

async function main() {
  console.log('Building for production…');
  execFileSync(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: ROOT, stdio: 'ignore' });
  const bundle = bundleFigures(DIST);
  const server = await startServer({ port: 0, delayMs: 0, distDir: DIST });
  const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version, bundle };
  try {
    console.log('First load…');
    const firstLoad = await measureFirstLoad(server);
    results.firstLoad = firstLoad;
    console.log('Lighthouse on each prerendered route…');
    const lighthouse: Record<string, unknown> = {};
    for (const route of ROUTES) lighthouse[route] = (await runLighthouse(`${server.url}${route}`, quick ? 1 : 3)).median;
    results.lighthouse = lighthouse;
    console.log('Long tasks at 4× CPU slowdown…');
    results.longTasks = await measureLongTasks(server.url, ROUTES, 4);
    console.log('Warm loads…');
    results.warm = await measureWarmLoads(server, 5);

    console.log('Server under load…');
    const asset = bundle.firstLoad.files.find((f: { file: string }) => f.file.endsWith('.css'))?.file ?? 'index.html';
    const seconds = quick ? 3 : 10;
    const staticLoad = await load(`${server.url}/${asset}`, 50, seconds);
    const apiLoad = await load(`${server.url}/api/symbols`, 50, seconds);
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const soak = await load(`${server.url}/api/symbols`, 100, quick ? 5 : 20);
    collectGarbage();
    soak.heapGrowthMb = Math.round(((process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024) * 10) / 10;
    results.load = [staticLoad, apiLoad, soak];
  } finally {
    await server.close();
  }
  console.log('Mock API throughput, with and without --persist, and Prism…');
  results.mockThroughput = await measureMockThroughput(quick ? 3 : 10);
  const timesFile = resolve(ROOT, '.cache/test-times.json');
  results.testTimes = existsSync(timesFile) ? JSON.parse(readFileSync(timesFile, 'utf8')) : null;
  writeFileSync(resolve(ROOT, 'bench/results.json'), JSON.stringify(results, null, 2));
  print(results);
}

const TREEMAP = resolve(ROOT, 'reports/bundle/treemap.html');
const REPORT = resolve(ROOT, 'reports/bench/index.html');

// biome-ignore lint/suspicious/noExplicitAny: the table reads the results object just written, whose shape is built above.
function figures(r: Record<string, any>): Figure[] {
  const f: Figure[] = [];
  const b = r.bundle;
  const KB = 1024;
  f.push({ figure: 'first load of / : requests', value: String(r.firstLoad.requests) });
  f.push({
    figure: 'first load JS+CSS, as served (brotli)',
    value: kb(r.firstLoad.jsCssTransferred),
    notes: `${r.firstLoad.jsCssRequests} files`,
  });
  f.push({
    figure: 'first load JS+CSS gzip',
    value: kb(b.firstLoad.gzip),
    goal: '≤ 75 KB',
    met: b.firstLoad.gzip <= 75 * KB,
    notes: `JS ${kb(b.firstLoad.js)}, CSS ${kb(b.firstLoad.css)}; treemap: reports/bundle/treemap.html`,
  });
  f.push({
    figure: 'JS+CSS fetched by idle (prefetch included), gzip',
    value: kb(r.firstLoad.idleJsCssGzip),
    goal: '≤ 110 KB',
    met: r.firstLoad.idleJsCssGzip <= 110 * KB,
    notes: `${r.firstLoad.idleJsCssFiles} files`,
  });
  f.push({ figure: 'largest lazy chunk gzip', value: kb(b.largestLazyChunk.gzip), notes: b.largestLazyChunk.file });
  f.push({
    figure: 'precache',
    value: kb(b.precache.bytes),
    goal: '≤ 350 KB',
    met: b.precache.bytes <= 350 * KB,
    notes: `${b.precache.entries} entries, ${kb(b.precache.gzip)} gzip`,
  });
  for (const [route, lh] of Object.entries(r.lighthouse) as [
    string,
    { categories: Record<string, number>; metrics: Record<string, number> },
  ][]) {
    const c = lh.categories;
    const m = lh.metrics;
    f.push({ figure: `${route} Lighthouse performance`, value: String(c.performance), goal: '100', met: c.performance === 100 });
    f.push({
      figure: `${route} Lighthouse a11y / BP / SEO`,
      value: `${c.accessibility} / ${c['best-practices']} / ${c.seo}`,
      goal: '100 each',
      met: c.accessibility === 100 && c['best-practices'] === 100 && c.seo === 100,
    });
    f.push({ figure: `${route} FCP (mobile, simulated)`, value: `${Math.round(m.fcp!)} ms`, goal: '≤ 800 ms', met: m.fcp! <= 800 });
    f.push({ figure: `${route} LCP`, value: `${Math.round(m.lcp!)} ms`, goal: '≤ 900 ms', met: m.lcp! <= 900 });
    f.push({ figure: `${route} CLS`, value: m.cls!.toFixed(3), goal: '0', met: m.cls === 0 });
    f.push({ figure: `${route} TBT`, value: `${Math.round(m.tbt!)} ms`, goal: '≤ 50 ms', met: m.tbt! <= 50 });
  }
  for (const t of r.longTasks as { path: string; longestMs: number; over50: number }[]) {
    f.push({
      figure: `${t.path} longest task during load, 4× CPU`,
      value: `${t.longestMs} ms`,
      goal: '≤ 50 ms',
      met: t.longestMs <= 50,
      notes: `${t.over50} task(s) over 50 ms`,
    });
  }
  f.push({
    figure: 'warm FCP via service worker (median of 5)',
    value: `${Math.round(r.warm.fcp)} ms`,
    goal: '≤ 150 ms',
    met: r.warm.fcp <= 150,
  });
  f.push({ figure: 'warm DOMContentLoaded (median of 5)', value: `${Math.round(r.warm.dcl)} ms` });
  for (const l of r.load) {
    f.push({
      figure: `GET ${l.target}, ${l.connections} conns, ${l.seconds} s`,
      value: `${l.requestsPerSecond} req/s`,
      notes: `p50 ${l.p50} ms, p99 ${l.p99} ms, errors ${l.errors}, non-2xx ${l.non2xx}${l.heapGrowthMb !== undefined ? `, live heap ${l.heapGrowthMb >= 0 ? '+' : ''}${l.heapGrowthMb} MB after the soak` : ''}`,
    });
  }
  if (r.mockThroughput) f.push(...throughputFigures(r.mockThroughput));
  if (r.testTimes) {
    for (const t of r.testTimes.results) f.push({ figure: `npm test: ${t.suite}`, value: `${t.seconds} s`, notes: t.ok ? 'pass' : 'FAIL' });
    f.push({
      figure: 'npm test: total',
      value: `${r.testTimes.total.toFixed(1)} s`,
      goal: '≤ 300 s',
      met: r.testTimes.total <= 300,
      notes: `measured ${r.testTimes.at}`,
    });
  } else {
    f.push({ figure: 'npm test suite times', value: 'not measured', notes: 'run npm test first (it writes .cache/test-times.json)' });
  }
  return f;
}

/** The mock's throughput beside Prism's on the same request, measured in the same run. */
function throughputFigures(results: ThroughputResult[]): Figure[] {
  const prism = results.find((t) => t.server === 'Prism mock');
  return results
    .filter((t) => t !== prism)
    .map((t) => ({
      figure: `${t.server}: ${t.request}, ${t.connections} conns, ${t.seconds} s`,
      value: `${t.requestsPerSecond} req/s`,
      ...(prism && t.request.startsWith('GET') ? { peer: `Prism: ${prism.requestsPerSecond} req/s` } : {}),
      notes: `p50 ${t.p50} ms, p99 ${t.p99} ms, errors ${t.errors}, non-2xx ${t.non2xx}`,
    }));
}

// biome-ignore lint/suspicious/noExplicitAny: as figures() above.
function print(r: Record<string, any>) {
  const all = figures(r);
  console.log('');
  printFigures(all);
  writeHtmlReport(REPORT, all, { at: r.at, node: r.node, ...(existsSync(TREEMAP) ? { treemap: TREEMAP } : {}) });
  console.log(`\nWritten to bench/results.json; report: ${REPORT}${existsSync(TREEMAP) ? `; treemap: ${TREEMAP}` : ''}`);
}

// `npm run bench -- --mock-throughput`: that measure alone, printed, nothing written.
const run = args.has('--mock-throughput')
  ? () => measureMockThroughput(quick ? 3 : 10).then((results) => printFigures(throughputFigures(results)))
  : main;
run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
