/**
 * What `npm run bench` measures (bench/run.ts reads its options first): the build's bytes, the
 * first load and cold visit in a browser, Lighthouse on each prerendered route, long tasks at 4×
 * CPU, warm loads, the server under load and the mock's throughput. Each figure is printed beside
 * its goal, and Lighthouse's and the long tasks' beside the machine's floor (bench/floor.ts); a
 * missed budget (a hydrated route's largest paint more than 50 ms after its first one as the page
 * painted them, a cold visit's bytes over budgets.json's) makes the run fail.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startServer, type RunningServer } from '../server/index.ts';
import { PAGE_FILES, PRERENDER_ATTRIBUTE } from '../src/index.ts';
import { runLighthouse } from '../lighthouse/index.ts';
import { bundleFigures, REACT_CHUNK, signInAs, startServerProcess, tinyBuild } from '../testkit/index.ts';
import { launchBrowser } from './browser.ts';
import { FLOOR_PAGES, startFloorServer, type FloorPage } from './floor.ts';
import { measureLongTasks, type LongTask, type LongTasks } from './long-tasks.ts';
import { isFullRun, type BenchOptions } from './options.ts';
import { figures, printFigures, writeHtmlReport } from './report.ts';
import type { FirstLoad, Floor, LoadResult, Results, RouteLighthouse, RouteLongTasks, ThroughputResult } from './results.ts';
import { track } from './shutdown.ts';
import { startPrism } from './prism.ts';
import { measureVerify, VERIFY_CONCURRENCY } from './verify-timings.ts';

const ROOT = resolve(import.meta.dirname, '..');

// Set by runBench: one run per process.
let options: BenchOptions;
let quick: boolean;
let DIST: string;

/** A full garbage collection, so heap figures compare live memory only. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A prerendered route, and whether its page is hydrated (else the app renders over a frame). */
interface Route {
  path: string;
  hydrated: boolean;
}

/** Every path of a prerendered page (src/config/page-files.ts), or the ones asked for. */
function routesToMeasure(asked: readonly string[] | null): Route[] {
  const fileOf = (path: string) =>
    Object.entries(PAGE_FILES).find(([, paths]) =>
      paths.some((p) => p === path || (p.endsWith('/*') && path.startsWith(p.slice(0, -1)))),
    )?.[0];
  const paths = asked ?? Object.values(PAGE_FILES).flatMap((list) => list.filter((p) => !p.endsWith('/*')));
  return paths.map((path) => {
    const file = fileOf(path);
    const html = file && existsSync(join(DIST, file)) ? readFileSync(join(DIST, file), 'utf8') : '';
    return { path, hydrated: html.includes(` ${PRERENDER_ATTRIBUTE}="`) };
  });
}

/** What a first visit to '/' downloads until the home screen has rendered, measured in the browser. */
async function measureFirstLoad(server: RunningServer): Promise<FirstLoad> {
  const { browser, forget } = await launchBrowser(track);
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
    })()`)) as Omit<FirstLoad, 'idleJsCssGzip' | 'idleJsCssFiles' | 'idleFiles'>;
    // The idle prefetch: the app fetches the other screens once the first one is up and the page idle.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(2000);
    const paths = (await page.evaluate(`[...new Set(performance.getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname).filter((p) => /\\.(js|css)$/.test(p)))]`)) as string[];
    const idleFiles = paths
      .map((file) => ({ file, gzip: gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length }))
      .sort((a, b) => b.gzip - a.gzip);
    const idleJsCssGzip = idleFiles.reduce((sum, f) => sum + f.gzip, 0);
    return { ...first, idleJsCssGzip, idleJsCssFiles: paths.length, idleFiles };
  } finally {
    await browser.close();
    forget();
  }
}

/** Repeat visits served by the service worker: FCP and DOMContentLoaded, median of `runs`. */
async function measureWarmLoads(server: RunningServer, runs: number) {
  const { browser, forget } = await launchBrowser(track);
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
    forget();
  }
}

/** autocannon on `url` (or, with `requests`, that sequence of requests in turn) for `seconds`. */
async function load(url: string, connections: number, seconds: number, requests?: autocannon.Request[]): Promise<LoadResult> {
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1, ...(requests ? { requests } : {}) });
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
  const forgetPlain = track(() => plain.kill('SIGTERM'));
  const persisting = await startServerProcess(['--persist', dbFile], { DIST_DIR: build });
  const forgetPersisting = track(() => persisting.kill('SIGTERM'));
  const prism = await startPrism();
  const prismUrl = prism.url;
  try {
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
      const { target: _target, ...figures } = await load(url, connections, seconds, requests);
      return { server, request, ...figures };
    };
    return [
      await measure('mock', 'GET /api/accounts', `${plain.url}/api/accounts`, 50),
      await measure('mock --persist', 'GET /api/accounts', `${persisting.url}/api/accounts`, 50),
      await measure('Prism mock', 'GET /accounts', `${prismUrl}/accounts`, 50),
      await measure('mock', 'POST+DELETE /api/notifications', plain.url, 10, await createThenDelete(plain)),
      await measure('mock --persist', 'POST+DELETE /api/notifications', persisting.url, 10, await createThenDelete(persisting)),
    ];
  } finally {
    prism.stop();
    await Promise.all([plain.kill('SIGTERM'), persisting.kill('SIGTERM')]);
    forgetPlain();
    forgetPersisting();
  }
}

/** `vite build` into dist/, stopped with the bench if it is stopped. */
function build(): Promise<void> {
  const child = spawn(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: ROOT, stdio: 'ignore' });
  const forget = track(() => child.kill('SIGTERM'));
  return new Promise((done, fail) => {
    child.once('exit', (code, signal) => {
      forget();
      if (code === 0) done();
      else fail(new Error(`vite build failed (${code ?? signal})`));
    });
  });
}

/**
 * The files whose static imports reach React's chunk: evaluating one of them evaluates React (and
 * the app's modules on the way) in the same task.
 */
function filesReachingReact(dist: string): Set<string> {
  const manifestFile = join(dist, '.vite/manifest.json');
  if (!existsSync(manifestFile)) return new Set();
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; imports?: string[] }>;
  const reaches = new Map<string, boolean>();
  const visit = (key: string): boolean => {
    const known = reaches.get(key);
    if (known !== undefined) return known;
    reaches.set(key, false);
    const chunk = manifest[key];
    const result = !!chunk && (REACT_CHUNK.test(chunk.file) || (chunk.imports ?? []).some(visit));
    reaches.set(key, result);
    return result;
  };
  return new Set(
    Object.keys(manifest)
      .filter(visit)
      .map((key) => `/${manifest[key]!.file}`),
  );
}

/** Splits each route's tasks over 50 ms into React's evaluation and the others. */
function classify(measured: LongTasks[], reactGraph: ReadonlySet<string>): RouteLongTasks[] {
  const isReactEvaluation = (task: LongTask) => {
    const main = task.scripts[0];
    return !!main && (main.kind === 'module-script' || main.kind === 'classic-script') && reactGraph.has(main.file);
  };
  return measured.map((route) => {
    const reactEvaluation = route.tasks.find(isReactEvaluation) ?? null;
    return { ...route, reactEvaluation, others: route.tasks.filter((t) => t !== reactEvaluation) };
  });
}

/** Lighthouse's runs on one page, with the gap between its two paints, simulated and as painted. */
async function lighthouseOf(url: string): Promise<Omit<RouteLighthouse, 'hydrated'>> {
  const lh = await runLighthouse(url, quick ? 1 : 3, track);
  return {
    runs: lh.runs.length,
    median: lh.median,
    lcpAfterFcp: median(lh.runs.map((run) => run.metrics.lcp - run.metrics.fcp)),
    paintedLcpAfterFcp: median(lh.runs.map((run) => run.observed.lcp - run.observed.fcp)),
  };
}

/** The floor's pages through the same measures as the routes, on a server of their own. */
async function measureFloor(lighthouse: boolean, longTasks: boolean): Promise<Floor> {
  const favicon = join(DIST, 'favicon.ico');
  const server = await startFloorServer(existsSync(favicon) ? favicon : undefined);
  const forget = track(() => server.close());
  try {
    const floor: Floor = { lighthouse: {}, longTasks: null };
    if (lighthouse) {
      for (const page of Object.keys(FLOOR_PAGES) as FloorPage[]) {
        floor.lighthouse[page] = { hydrated: false, ...(await lighthouseOf(`${server.url}${FLOOR_PAGES[page]}`)) };
      }
    }
    if (longTasks) floor.longTasks = (await measureLongTasks(server.url, [FLOOR_PAGES.bare], 4, track, false))[0] ?? null;
    return floor;
  } finally {
    await server.close();
    forget();
  }
}

const TREEMAP = resolve(ROOT, 'reports/bundle/treemap.html');
const REPORT = resolve(ROOT, 'reports/bench/index.html');

/** Measures what `given` asks for and prints it: 0, or 1 when a budget is missed. */
export async function runBench(given: BenchOptions): Promise<number> {
  options = given;
  quick = given.quick;
  DIST = resolve(ROOT, given.dist);
  if (options.build) {
    console.log('Building for production…');
    await build();
  }
  const parts = options.parts;
  // The build's own figures (bytes, from its files) go with the first load's, measured in the browser.
  const bundle = parts.has('first-load') && existsSync(join(DIST, '.vite/manifest.json')) ? bundleFigures(DIST) : null;
  const results: Results = { at: new Date().toISOString(), node: process.version, bundle };
  const routes = routesToMeasure(options.routes);
  const hydrated = routes.filter((r) => r.hydrated).map((r) => r.path);
  if (['first-load', 'lighthouse', 'long-tasks', 'warm', 'load'].some((part) => parts.has(part as never))) {
    const server = await startServer({ port: 0, delayMs: 0, distDir: DIST });
    const forget = track(() => server.close());
    try {
      if (parts.has('first-load')) {
        console.log('First load…');
        results.firstLoad = await measureFirstLoad(server);
      }
      if (parts.has('lighthouse')) {
        console.log(`Lighthouse on ${routes.map((r) => r.path).join(', ')}…`);
        results.lighthouse = {};
        for (const route of routes) {
          results.lighthouse[route.path] = { hydrated: route.hydrated, ...(await lighthouseOf(`${server.url}${route.path}`)) };
        }
      }
      if (parts.has('long-tasks') && hydrated.length > 0) {
        console.log('Long tasks at 4× CPU slowdown…');
        results.longTasks = classify(await measureLongTasks(server.url, hydrated, 4, track), filesReachingReact(DIST));
      }
      if (parts.has('lighthouse') || parts.has('long-tasks')) {
        console.log("The machine's floor (bench/floor.ts)…");
        results.floor = await measureFloor(parts.has('lighthouse'), parts.has('long-tasks'));
      }
      if (parts.has('warm')) {
        console.log('Warm loads…');
        results.warm = await measureWarmLoads(server, 5);
      }
      if (parts.has('load')) {
        console.log('Server under load…');
        const asset = readdirSync(join(DIST, 'assets')).find((file) => file.endsWith('.css'));
        const seconds = quick ? 3 : 10;
        const staticLoad = await load(`${server.url}/${asset ? `assets/${asset}` : 'index.html'}`, 50, seconds);
        const apiLoad = await load(`${server.url}/api/symbols`, 50, seconds);
        collectGarbage();
        const heapBefore = process.memoryUsage().heapUsed;
        const soak = await load(`${server.url}/api/symbols`, 100, quick ? 5 : 20);
        collectGarbage();
        soak.heapGrowthMb = Math.round(((process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024) * 10) / 10;
        results.load = [staticLoad, apiLoad, soak];
      }
    } finally {
      await server.close();
      forget();
    }
  }
  if (parts.has('mock-throughput')) {
    console.log('Mock API throughput, with and without --persist, and Prism…');
    results.mockThroughput = await measureMockThroughput(quick ? 3 : 10);
  }
  if (parts.has('verify')) {
    console.log("verify against the embedded mock and Prism's, one resource at a time and side by side…");
    results.verify = await measureVerify(quick ? [VERIFY_CONCURRENCY] : [1, VERIFY_CONCURRENCY]);
  }
  const timesFile = resolve(ROOT, '.cache/test-times.json');
  results.testTimes = existsSync(timesFile) ? JSON.parse(readFileSync(timesFile, 'utf8')) : null;
  const all = figures(results, isFullRun(options));
  console.log('');
  printFigures(all);
  if (isFullRun(options)) {
    writeFileSync(resolve(ROOT, 'bench/results.json'), JSON.stringify(results, null, 2));
    writeHtmlReport(REPORT, all, { at: results.at, node: results.node, ...(existsSync(TREEMAP) ? { treemap: TREEMAP } : {}) });
    console.log(`\nWritten to bench/results.json; report: ${REPORT}${existsSync(TREEMAP) ? `; treemap: ${TREEMAP}` : ''}`);
  }
  const missed = all.filter((f) => f.budget && f.met === false);
  if (missed.length > 0) {
    console.error(`\nBudget missed: ${missed.map((f) => `${f.figure} ${f.value} (${f.goal})`).join('; ')}`);
    return 1;
  }
  return 0;
}
