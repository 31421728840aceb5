import { test as base, expect, type Page } from '@playwright/test';
import { startServer, type RunningServer } from '../../mocks/server.ts';
import { DIST } from './global-setup.ts';

interface WorkerFixtures {
  server: RunningServer;
}

interface TestFixtures {
  /** Console errors and CSP violations seen on the page; each test asserts there are none. */
  consoleErrors: string[];
}

/**
 * Each worker serves the production build with its own mock backend (no delay), so tests in
 * different workers never share state; each test starts from the seed data.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring; this one has none.
    async ({}, use) => {
      const server = await startServer({ port: 0, delayMs: 0, distDir: DIST });
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => {
    await fetch(`${server.url}/api/commands/reset`, { method: 'POST' });
    server.deploy(DIST);
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
