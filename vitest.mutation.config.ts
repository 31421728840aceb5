import { defineConfig } from 'vitest/config';
import base, { nodeProject, unitProject } from './vitest.config';

/**
 * The suites `npm run test:mutation` runs against each mutant: the unit tests, and the contract
 * tests that drive the mock, the app's state or verify's pieces in-process (a spawned server or CLI
 * would neither see the mutant nor report coverage per test: mock-cli and mock-persistence stay out;
 * so does mock-scenarios, whose Prism would start again for every mutant it covers).
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // Stryker runs its own test runners side by side, one worker each.
    maxWorkers: 1,
    projects: [
      unitProject,
      nodeProject('mock', [
        'contract-tests/{static-serving,server-delay,idempotency,accounts,oidc-provider,strict-checker}.test.ts',
        'contract-tests/{mock-authentication,mock-control}.test.ts',
        // The profile's requests and the client's XSRF echo against the mock; the app's profile model
        // (src/profile/) against the mock, in one process.
        'src/profile/requests.contract.test.ts',
        'src/xsrf.contract.test.ts',
        'src/profile/conflicts.contract.test.ts',
        'verify/tests/{command-line,curl,canonical-requests,kept-alive,judge,bounded-time}.test.ts',
      ]),
    ],
  },
});
