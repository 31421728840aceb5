import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';

export default defineConfig({
  plugins: [react(), babel({ plugins: [['module:@preact/signals-react-transform', { mode: 'auto' }]] })],
  define: { __DEV_MOCKS__: 'false', __BUILD_ID__: JSON.stringify('test') },
  test: {
    projects: [
      {
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
      },
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['contract-tests/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
          fileParallelism: false,
        },
      },
    ],
  },
});
