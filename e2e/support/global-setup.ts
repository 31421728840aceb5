import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const DIST = resolve(ROOT, 'dist');
/** A second build of the same app with another build id: what a deploy of a new version serves. */
export const DIST_NEXT = resolve(ROOT, '.cache/dist-next');

function build(outDir: string, buildId: string) {
  execFileSync(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, CIRCLE_BUILD_ID: buildId },
  });
}

/** The suites run against production builds; they are made here unless `npm test` just made them. */
export default function globalSetup() {
  const fresh = (dir: string) =>
    existsSync(resolve(dir, 'index.html')) && Date.now() - statSync(resolve(dir, 'index.html')).mtimeMs < 10 * 60_000;
  if (!process.env.CIRCLE_SKIP_BUILD || !fresh(DIST)) build(DIST, 'current');
  if (!fresh(DIST_NEXT)) build(DIST_NEXT, 'next');
}
