/**
 * `npm run bench`: builds for production, serves the build and measures it. It reports; it
 * never fails on speed. Prints a table and writes bench/results.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { chromium } from '@playwright/test';
import { startServer, type RunningServer } from '../mocks/server.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';
import { runLighthouse } from '../lighthouse/audit.ts';
import { startServerProcess, tinyBuild } from '../contract-tests/support/mock-process.ts';
import { freePort } from '../contract-tests/support/ports.ts';
// @ts-expect-error: a plain .mjs module without type declarations, shared with the budget check.
import { bundleFigures } from '../scripts/bundle-figures.mjs';

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
}

/** What a first visit to '/' downloads until the home screen has rendered, measured in the browser. */
async function measureFirstLoad(server: RunningServer): Promise<FirstLoad> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    // The moment the app's first heading appears (the static shell has none): requests started
    // before it are the first load; the idle prefetch of other screens comes after.
    await page.addInitScript(`new MutationObserver((_, observer) => {
      if (document.querySelector('h1')) { window.__renderedAt = performance.now(); observer.disconnect(); }
    }).observe(document, { childList: true, subtree: true });`);
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    return (await page.evaluate(`(() => {
      const before = performance.getEntriesByType('resource').filter((e) => e.startTime <= window.__renderedAt);
      const jsCss = before.filter((e) => /\\.(js|css)$/.test(new URL(e.name).pathname));
      return {
        requests: before.length + 1,
        jsCssRequests: jsCss.length,
        jsCssTransferred: jsCss.reduce((sum, e) => sum + e.encodedBodySize, 0),
      };
    })()`)) as FirstLoad;
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
    const createThenDelete: autocannon.Request[] = [
      {
        method: 'POST',
        path: '/api/notifications',
        headers: { 'content-type': 'application/json' },
        body: notification,
        onResponse: (_status, body, context) => {
          (context as Context).id = (JSON.parse(body) as { id: string }).id;
        },
      },
      { method: 'DELETE', setupRequest: (request, context) => ({ ...request, path: `/api/notifications/${(context as Context).id}` }) },
    ];
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
      await measure('mock', 'POST+DELETE /api/notifications', plain.url, 10, createThenDelete),
      await measure('mock --persist', 'POST+DELETE /api/notifications', persisting.url, 10, createThenDelete),
    ];
  } finally {
    prism.kill('SIGTERM');
    await Promise.all([plain.kill('SIGTERM'), persisting.kill('SIGTERM')]);
  }
}

function throughputRows(results: ThroughputResult[]): [string, string, string][] {
  return results.map((t) => [
    `${t.server}: ${t.request}, ${t.connections} conns, ${t.seconds} s`,
    `${t.requestsPerSecond} req/s`,
    `p50 ${t.p50} ms, p99 ${t.p99} ms, errors ${t.errors}, non-2xx ${t.non2xx}`,
  ]);
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
    console.log('Lighthouse…');
    const lh = await runLighthouse(`${server.url}/`, quick ? 1 : 3);
    results.lighthouse = lh.median;
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

// biome-ignore lint/suspicious/noExplicitAny: the table reads the results object just written, whose shape is built above.
function print(r: Record<string, any>) {
  const rows: [string, string, string][] = [];
  const b = r.bundle;
  const lh = r.lighthouse;
  rows.push(['first load of / : requests', String(r.firstLoad.requests), '']);
  rows.push(['first load JS+CSS transferred (brotli)', kb(r.firstLoad.jsCssTransferred), `${r.firstLoad.jsCssRequests} files`]);
  rows.push(['first load JS+CSS gzip', kb(b.firstLoad.gzip), `goal ≤ 75 KB (JS ${kb(b.firstLoad.js)}, CSS ${kb(b.firstLoad.css)})`]);
  rows.push(['largest lazy chunk gzip', kb(b.largestLazyChunk.gzip), b.largestLazyChunk.file]);
  rows.push(['precache', `${kb(b.precache.bytes)}`, `${b.precache.entries} entries, ${kb(b.precache.gzip)} gzip; goal ≤ 350 KB`]);
  rows.push(['Lighthouse performance (median)', String(lh.categories.performance), 'goal ≥ 98']);
  rows.push([
    'Lighthouse accessibility / BP / SEO',
    `${lh.categories.accessibility} / ${lh.categories['best-practices']} / ${lh.categories.seo}`,
    'goal 100 each',
  ]);
  rows.push(['LCP', `${Math.round(lh.metrics.lcp)} ms`, 'goal ≤ 1200 ms']);
  rows.push(['TBT', `${Math.round(lh.metrics.tbt)} ms`, 'goal ≤ 50 ms']);
  rows.push(['CLS', lh.metrics.cls.toFixed(3), 'goal 0']);
  rows.push(['warm FCP via service worker (median of 5)', `${Math.round(r.warm.fcp)} ms`, 'goal ≤ 150 ms']);
  rows.push(['warm DOMContentLoaded (median of 5)', `${Math.round(r.warm.dcl)} ms`, '']);
  for (const l of r.load) {
    rows.push([
      `GET ${l.target}, ${l.connections} conns, ${l.seconds} s`,
      `${l.requestsPerSecond} req/s`,
      `p50 ${l.p50} ms, p99 ${l.p99} ms, errors ${l.errors}, non-2xx ${l.non2xx}${l.heapGrowthMb !== undefined ? `, live heap ${l.heapGrowthMb >= 0 ? '+' : ''}${l.heapGrowthMb} MB after the soak` : ''}`,
    ]);
  }
  if (r.mockThroughput) rows.push(...throughputRows(r.mockThroughput));
  if (r.testTimes) {
    for (const t of r.testTimes.results) rows.push([`npm test: ${t.suite}`, `${t.seconds} s`, t.ok ? 'pass' : 'FAIL']);
    rows.push(['npm test: total', `${r.testTimes.total.toFixed(1)} s`, `measured ${r.testTimes.at}; goal ≤ 8 min`]);
  } else {
    rows.push(['npm test suite times', 'not measured', 'run npm test first (it writes .cache/test-times.json)']);
  }
  const w0 = Math.max(...rows.map((x) => x[0].length));
  const w1 = Math.max(...rows.map((x) => x[1].length));
  console.log(`\n${'figure'.padEnd(w0)}  ${'value'.padEnd(w1)}  notes`);
  for (const [a, v, n] of rows) console.log(`${a.padEnd(w0)}  ${v.padEnd(w1)}  ${n}`);
  console.log('\nWritten to bench/results.json');
}

// `npm run bench -- --mock-throughput`: that measure alone, printed, nothing written.
const run = args.has('--mock-throughput')
  ? () =>
      measureMockThroughput(quick ? 3 : 10).then((results) =>
        console.log(
          throughputRows(results)
            .map((row) => row.join('  '))
            .join('\n'),
        ),
      )
  : main;
run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
