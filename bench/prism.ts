/** Prism's mock of openapi.yaml (`npm run prism`), the peer the bench measures the mock and verify beside. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '../testkit/index.ts';
import { track } from './shutdown.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** Prism's mock of openapi.yaml on a free port, once it answers. */
export async function startPrism(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const prism = spawn(
    process.execPath,
    [resolve(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js'), 'mock', 'openapi.yaml', '-h', '127.0.0.1', '-p', String(port)],
    { cwd: ROOT, env: { ...process.env, SCARF_ANALYTICS: 'false' }, stdio: 'ignore' },
  );
  const forget = track(() => prism.kill('SIGTERM'));
  const stop = () => {
    prism.kill('SIGTERM');
    forget();
  };
  const url = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
    const up = await fetch(`${url}/accounts`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, stop };
    if (Date.now() - started > 30_000) {
      stop();
      throw new Error("Prism's mock did not start within 30 s");
    }
  }
}
