import { defineConfig } from 'vitest/config';
import base, { nodeProject, unitProject } from './vitest.config';

/**
 * The suites `npm run test:mutation` runs against each mutant: the unit tests, and the contract
 * tests that drive the mock in-process without spawning Prism or a CLI (a spawned process would
 * neither see the mutant nor report coverage per test).
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: [unitProject, nodeProject('mock', ['contract-tests/{profile,xsrf,static-serving,server-delay,mock-*}.test.ts'])],
  },
});
