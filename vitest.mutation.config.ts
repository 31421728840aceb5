import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * The suites `npm run test:mutation` runs against each mutant: the unit tests, and the contract
 * tests that drive the mock in-process without spawning Prism or a CLI (a spawned process would
 * neither see the mutant nor report coverage per test).
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'mocks/**/*.test.ts'],
          environment: 'happy-dom',
          setupFiles: ['src/test/setup.ts'],
          execArgv: ['--no-experimental-webstorage'],
        },
      },
      {
        extends: true,
        test: {
          name: 'mock',
          include: ['contract-tests/{profile,xsrf,static-serving,server-delay,mock-*}.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
