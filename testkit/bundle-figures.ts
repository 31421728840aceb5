/** Size figures of a build, from Vite's manifest and the service worker's precache list: the budget check's and bench's. */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** A chunk of Vite's build manifest, as far as the figures read it. */
interface Chunk {
  file: string;
  isEntry?: boolean;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
}

interface Sized {
  file: string;
  bytes: number;
  gzip: number;
}

export interface BundleFigures {
  firstLoad: { files: Sized[]; js: number; reactJs: number; appJs: number; css: number; gzip: number; bytes: number };
  largestLazyChunk: { file: string | null; gzip: number };
  signInClient: { file: string | null; gzip: number };
  precache: { entries: number; bytes: number; gzip: number };
}

/** The chunk of vite.config.ts's 'react' group: react, react-dom and the scheduler. */
export const REACT_CHUNK = /^assets\/react-[\w-]+\.js$/;

/** What the first visit to '/' downloads before the home screen renders: the pre-paint script, the
 * entry and its CSS, the boot chunk it loads, and the home route, each with its static imports. */
export function bundleFigures(dist: string): BundleFigures {
  const manifest = JSON.parse(readFileSync(resolve(dist, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  // Home has a chunk of its own, unless the core group took it in with app/home-screen.ts: then the
  // boot's chunk already holds it.
  const homeKey = Object.keys(manifest).find((k) => /src\/(features\/home\/HomeScreen\.tsx|app\/home-screen\.ts)$/.test(k));
  if (!entryKey) throw new Error(`No entry chunk in ${dist}/.vite/manifest.json`);
  // The entry paints nothing itself: it loads the boot code (in the core chunk), which renders home.
  const bootKeys = manifest[entryKey]!.dynamicImports ?? [];
  const firstLoad = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || firstLoad.has(chunk.file)) return;
    firstLoad.add(chunk.file);
    for (const css of chunk.css ?? []) firstLoad.add(css);
    for (const imp of chunk.imports ?? []) visit(imp);
  };
  visit(entryKey);
  for (const key of bootKeys) visit(key);
  if (homeKey) visit(homeKey);
  const files: Sized[] = [...firstLoad].map((file) => ({ file, bytes: statSync(resolve(dist, file)).size, gzip: gz(resolve(dist, file)) }));
  // The pre-paint script every page runs inline in its <head> (written by the prerender, not in the
  // manifest): counted as the JavaScript it is, though it comes in the page.
  const prePaint = /<script>([\s\S]*?)<\/script>/.exec(readFileSync(resolve(dist, 'index.html'), 'utf8'))?.[1];
  if (prePaint)
    files.push({
      file: 'index.html: inline pre-paint.js',
      bytes: Buffer.byteLength(prePaint),
      gzip: gzipSync(prePaint, { level: 9 }).length,
    });
  const jsFiles = files.filter((f) => f.file.endsWith('.js'));
  // React's own chunk (react, react-dom, the scheduler: vite.config.ts's 'react' group) and the rest.
  const reactFiles = jsFiles.filter((f) => REACT_CHUNK.test(f.file));
  const lazy = Object.values(manifest)
    .filter((c) => c.file.endsWith('.js') && !firstLoad.has(c.file))
    .map((c) => ({ file: c.file, gzip: gz(resolve(dist, c.file)) }))
    .sort((a, b) => b.gzip - a.gzip);
  // The OpenID Connect client loads only to sign in, out or renew: it has a budget of its own, and
  // the screens' chunks keep theirs.
  const isSignInClient = (c: { file: string }) => /^assets\/oidc-client-/.test(c.file);
  const signInClient = lazy.find(isSignInClient) ?? { file: null, gzip: 0 };
  const screens = lazy.filter((c) => !isSignInClient(c));
  const sw = readFileSync(resolve(dist, 'sw.js'), 'utf8');
  const urls = [...sw.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]!);
  const precache = urls.map((url) => ({ url, bytes: statSync(resolve(dist, url)).size, gzip: gz(resolve(dist, url)) }));
  return {
    firstLoad: {
      files,
      js: jsFiles.reduce((s, f) => s + f.gzip, 0),
      reactJs: reactFiles.reduce((s, f) => s + f.gzip, 0),
      appJs: jsFiles.filter((f) => !reactFiles.includes(f)).reduce((s, f) => s + f.gzip, 0),
      css: files.filter((f) => f.file.endsWith('.css')).reduce((s, f) => s + f.gzip, 0),
      gzip: files.reduce((s, f) => s + f.gzip, 0),
      bytes: files.reduce((s, f) => s + f.bytes, 0),
    },
    largestLazyChunk: screens[0] ?? { file: null, gzip: 0 },
    signInClient,
    precache: {
      entries: precache.length,
      bytes: precache.reduce((s, e) => s + e.bytes, 0),
      gzip: precache.reduce((s, e) => s + e.gzip, 0),
    },
  };
}
