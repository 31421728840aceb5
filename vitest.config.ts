import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** verify's tests that run it whole against the mock, Prism and its peers, beside its code. */
const VERIFY_CONTRACT = 'verify/tests/**/*.test.ts';
/** The app's tests against the API (its client, the profile slice), beside its code. */
const APP_CONTRACT = 'src/**/*.contract.test.ts';

/** Unit and component tests beside the code, in a simulated browser. */
export const unitProject: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'unit',
    include: [
      'src/**/*.test.{ts,tsx}',
      'mock-api/**/*.test.ts',
      'server/**/*.test.ts',
      'oidc/**/*.test.ts',
      'openapi-kit/**/*.test.ts',
      'verify/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    // verify run whole against servers and peers, the app against the API: the contract project's (below).
    exclude: [...configDefaults.exclude, VERIFY_CONTRACT, APP_CONTRACT],
    environment: 'happy-dom',
    setupFiles: ['src/test/setup.ts'],
    // Node 25+ defines its own localStorage global (a warning without --localstorage-file);
    // the browser under test is happy-dom's, so Node's is switched off in the workers.
    execArgv: ['--no-experimental-webstorage'],
  },
};

/**
 * Tests of the API in Node (contract-tests/, the app's *.contract.test.ts, and verify/tests/). Each
 * file starts its own servers (port 0, its own temporary folders), so files share no state and run
 * in parallel, one per worker. The fault table is cut into two
 * files for that (contract-tests/support/fault-table.ts). The files that judge Prism with short
 * answer limits (verify's `--request-timeout 2` against Prism's mock: a slow answer would be
 * judged as none) are the `contract-serial` group: they run after the others, one at a time, with
 * the machine to themselves, so that no verdict depends on how busy the other files keep the CPU.
 */
const CONTRACT_SERIAL = ['verify/tests/corpus.test.ts', 'verify/tests/prism.test.ts'];

export function nodeProject(
  name: string,
  include: string[],
  { exclude = [], parallel = true, groupOrder = 0 }: { exclude?: string[]; parallel?: boolean; groupOrder?: number } = {},
): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name,
      include,
      exclude,
      environment: 'node',
      testTimeout: 30000,
      hookTimeout: 60000,
      fileParallelism: parallel,
      sequence: { groupOrder },
    },
  };
}

/** The fault table's parts: the contract files that take longest, by far (about 200 s each). */
const FAULT_TABLE = /\/contract-tests\/verify-faults[^/]*\.test\.ts$/;

/**
 * Vitest's order (failed first, then the longest by its cache, else the largest file), with the
 * fault table's parts first: each then has a worker from the start, and the other files share what
 * is left. Without it, on a fresh clone (no cache), the parts, small files, came last, one after
 * the other.
 */
class FaultTableFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (file: TestSpecification) => FAULT_TABLE.test(file.moduleId);
    return [...sorted.filter(first), ...sorted.filter((file) => !first(file))];
  }
}

export default defineConfig({
  plugins: [react(), babel({ plugins: [['module:@preact/signals-react-transform', { mode: 'auto' }]] })],
  define: { __DEV_MOCKS__: 'false', __BUILD_ID__: JSON.stringify('test') },
  test: {
    // Every core: Vitest's default leaves one free, which on a two-core machine is half of them.
    maxWorkers: '100%',
    sequence: { sequencer: FaultTableFirst },
    projects: [
      unitProject,
      nodeProject('contract', ['contract-tests/**/*.test.ts', APP_CONTRACT, VERIFY_CONTRACT], { exclude: CONTRACT_SERIAL }),
      nodeProject('contract-serial', CONTRACT_SERIAL, { parallel: false, groupOrder: 1 }),
    ],
  },
});
