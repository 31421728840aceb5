import { defineConfig } from '@playwright/test';

/** Debian's Chromium, with the flags this kind of machine needs (no downloads, no outside network). */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  globalTeardown: './e2e/support/global-teardown.ts',
  fullyParallel: true,
  workers: 2,
  // Each test waits for the state it checks (never for time). On CI one retry stays as a net: a test
  // that needed it is named as flaky at the end of the log (scripts/run-tests.mjs), to be fixed.
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 8_000 },
  // The JSON report feeds the per-file time table `npm test` prints (scripts/e2e-times.mjs).
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    // Recording a trace costs about a sixth of the suite's CPU time: only a retry records one (CI
    // retries once), or a run with --trace on.
    trace: 'on-first-retry',
    // The app's worker installs with every new browser context and downloads the whole precache
    // (some 350 KB, 37 files): half a second of CPU per test that is not about it. A test of the
    // worker, installation, an update or offline use asks for it: test.use({ serviceWorkers: 'allow' }).
    serviceWorkers: 'block',
  },
});
