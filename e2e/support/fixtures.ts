import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startServer, type RunningServer } from '../../server/index.ts';
import { treeCpuMs } from './cpu.ts';
import { DIST } from './global-setup.ts';
import { EXCHANGES_DIR, type WorkerTally } from './global-teardown.ts';

interface WorkerFixtures {
  server: RunningServer;
}

interface TestFixtures {
  /** Console errors and CSP violations seen on the page; each test asserts there are none. */
  consoleErrors: string[];
  /** Fails the test when an API exchange during it broke openapi.yaml. */
  contract: undefined;
  /** Notes the CPU time the test took (see cpu.ts) for the per-file table of scripts/e2e-times.mjs. */
  cpuTime: undefined;
}

/** Contract violations of this worker's server already reported by a test. */
let reported = 0;
/** This worker's server (see `server` below). */
let workerServer: RunningServer | undefined;

/** Where the pages of this worker's tests go by default (their base URL). */
export function testServerUrl(): string {
  if (!workerServer) throw new Error('No server yet: ask for `page` or `baseURL` first');
  return workerServer.url;
}

function contractFailure(violations: string[], when: string): Error {
  const lines = violations.map((v) => `  - ${v}`).join('\n');
  return new Error(`${violations.length} API exchange(s) broke openapi.yaml ${when}:\n${lines}`);
}

/**
 * Each worker serves the production build with its own mock backend (no delay), so tests in
 * different workers never share state; each test starts from the seed data. The server is strict:
 * every API exchange is judged against openapi.yaml (server/strict.ts), a violation fails the test
 * it happened in, and the worker's tally goes to the global teardown, which prints the total.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring; this one has none.
    async ({}, use, workerInfo) => {
      const server = await startServer({ port: 0, delayMs: 0, distDir: DIST, strict: true });
      workerServer = server;
      await use(server);
      await server.close();
      const { checked, violations } = server.exchanges();
      const tally: WorkerTally = { checked, violations: violations.length };
      mkdirSync(EXCHANGES_DIR, { recursive: true });
      writeFileSync(resolve(EXCHANGES_DIR, `worker-${workerInfo.workerIndex}.json`), JSON.stringify(tally));
      // Exchanges still under way when the last test ended.
      const late = violations.slice(reported);
      if (late.length > 0) throw contractFailure(late, 'after the last test of this worker');
    },
    { scope: 'worker' },
  ],
  cpuTime: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring; this one has none.
    async ({}, use, testInfo) => {
      const before = treeCpuMs();
      await use(undefined);
      const after = treeCpuMs();
      if (before !== null && after !== null) testInfo.annotations.push({ type: 'cpu-ms', description: String(after - before) });
    },
    { auto: true },
  ],
  contract: [
    async ({ server }, use) => {
      await use(undefined);
      // Auto fixtures are set up first and torn down last: the page and its requests are done.
      const { violations } = server.exchanges();
      const found = violations.slice(reported);
      reported = violations.length;
      if (found.length > 0) throw contractFailure(found, 'during this test');
    },
    { auto: true },
  ],
  baseURL: async ({ server }, use) => {
    // The mock's own reset (same origin, no role): the API's command is an admin's.
    await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
    // As an earlier test may have left it (a deploy, an outage it did not live to end).
    server.deploy(DIST);
    server.setReachable(true);
    await use(server.url);
  },
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    await use(errors);
  },
});

export { expect };

/** Resolves once the service worker controls the page, so the next loads can be served offline. */
export async function waitForServiceWorker(page: Page): Promise<void> {
  // The predicate must be synchronous: a returned promise would count as truthy at once.
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, { timeout: 20_000 });
}

/**
 * Takes the network away from the page's browser context and waits until the app has taken note
 * (its Offline chip in the top bar). The browser tells the page with an event, which a busy machine
 * may deliver after the test's next click: a save would then start online and fail on the way
 * (another journey, with the browser's line for a failed load) instead of being kept at once.
 */
export async function goOffline(page: Page): Promise<void> {
  await page.context().setOffline(true);
  await expect(page.getByTestId('online-status')).toBeVisible();
}

/**
 * Gives the network back to the page's browser context as a device gets it back: to its pages and
 * their service worker at once. Chromium's emulation lifts it page by page, then worker by worker: a
 * page that heard it is online could ask its worker, still offline, for a file the precache leaves
 * out (a save's code, a conflict's), and fail to load it. So the page's scripts are held (the
 * debugger's pause) until the whole context is online: then it hears of it.
 */
export async function goOnline(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Debugger.enable');
    // Pauses at the next statement the page runs: the first line of what it does on hearing it is online.
    await cdp.send('Debugger.pause');
    await page.context().setOffline(false);
  } finally {
    // Resumes the page if it paused, and disarms the pause if it ran nothing meanwhile.
    await cdp.send('Debugger.disable');
    await cdp.detach();
  }
}

/** CSP violations are reported to the page as securitypolicyviolation events. */
export async function collectCspViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}
