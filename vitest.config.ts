import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';

/** Unit and component tests beside the code, in a simulated browser. */
export const unitProject: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'unit',
    include: ['src/**/*.test.{ts,tsx}', 'mocks/**/*.test.ts'],
    environment: 'happy-dom',
    setupFiles: ['src/test/setup.ts'],
    // Node 25+ defines its own localStorage global (a warning without --localstorage-file);
    // the browser under test is happy-dom's, so Node's is switched off in the workers.
    execArgv: ['--no-experimental-webstorage'],
  },
};

/**
 * Tests of the API in Node, servers started in-process. Two files at a time by default: every
 * server, Prism and temporary file a test makes is its own (ports chosen by the OS, directories
 * from mkdtemp), and the long files mostly wait on child processes.
 */
export function nodeProject(name: string, include: string[], workers = 2): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: { name, include, environment: 'node', testTimeout: 30000, hookTimeout: 60000, fileParallelism: workers > 1, maxWorkers: workers },
  };
}

export default defineConfig({
  plugins: [react(), babel({ plugins: [['module:@preact/signals-react-transform', { mode: 'auto' }]] })],
  define: { __DEV_MOCKS__: 'false', __BUILD_ID__: JSON.stringify('test') },
  test: {
    projects: [unitProject, nodeProject('contract', ['contract-tests/**/*.test.ts'])],
  },
});
