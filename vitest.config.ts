import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';

/** Unit and component tests beside the code, in a simulated browser. */
export const unitProject: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'unit',
    include: [
      'src/**/*.test.{ts,tsx}',
      'mocks/**/*.test.ts',
      'openapi-kit/**/*.test.ts',
      'verify/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    environment: 'happy-dom',
    setupFiles: ['src/test/setup.ts'],
    // Node 25+ defines its own localStorage global (a warning without --localstorage-file);
    // the browser under test is happy-dom's, so Node's is switched off in the workers.
    execArgv: ['--no-experimental-webstorage'],
  },
};

/**
 * Tests of the API in Node: servers started in-process, one file at a time. Two at a time were
 * measured about 40 s faster, but the files are CPU-bound (Prism, verify, servers killed and restarted),
 * and a loaded machine made verify's 5 s answer limit fail against Prism: not worth a flaky suite.
 */
export function nodeProject(name: string, include: string[]): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: { name, include, environment: 'node', testTimeout: 30000, hookTimeout: 60000, fileParallelism: false },
  };
}

export default defineConfig({
  plugins: [react(), babel({ plugins: [['module:@preact/signals-react-transform', { mode: 'auto' }]] })],
  define: { __DEV_MOCKS__: 'false', __BUILD_ID__: JSON.stringify('test') },
  test: {
    // Every core: Vitest's default leaves one free, which on a two-core machine is half of them.
    // The contract files still run one at a time (fileParallelism: false).
    maxWorkers: '100%',
    projects: [unitProject, nodeProject('contract', ['contract-tests/**/*.test.ts'])],
  },
});
