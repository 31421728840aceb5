import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { build as rolldownBuild } from 'rolldown';
import { createServer, type Plugin, type PluginOption } from 'vite';
import { MEMBERS_ONLY_ATTRIBUTE, PRERENDER_ATTRIBUTE } from '../config/page-files.ts';
import { pagesToPrerender, type PageRender } from './pages.ts';
import type { PrerenderedPage } from './render-page.tsx';

import { DEFAULT_COLOR_SCHEME, DEFAULT_THEME } from '../config/themes.ts';

/** The language the pages are prerendered in (the theme and colour scheme are the default ones). */
const PRERENDER_LANGUAGE = 'en';

interface Renderer {
  renderRoute(route: string, path: string): Promise<PrerenderedPage>;
  renderFrame(layout: string, path: string, title?: string): Promise<PrerenderedPage>;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The pre-paint script as one classic, minified file: it must run before the first paint. */
async function compilePrePaint(root: string, entry: string): Promise<string> {
  const result = await rolldownBuild({
    input: resolve(root, 'src/pre-paint.ts'),
    write: false,
    transform: { define: { __APP_ENTRY__: JSON.stringify(entry) } },
    output: { format: 'iife', minify: true },
  });
  const chunk = result.output[0];
  if (chunk?.type !== 'chunk') throw new Error('The pre-paint script did not build');
  return chunk.code;
}

/**
 * The CSP source that allows one inline script, by its code's SHA-256 (CSP Level 2's hash source):
 * the browser hashes the text between the tags, byte for byte.
 */
export function scriptHashSource(code: string): string {
  return `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`;
}

/**
 * Where the build states the hashes of its inline scripts, for the server's `script-src`
 * (server reads it). A dot file: build metadata, never served nor precached.
 */
const SCRIPT_HASHES_FILE = '.csp-script-hashes.json';

/** The app's entry module the built index.html loads: the pre-paint script loads it instead, after the first paint. */
const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;

/**
 * The built index.html with a page's markup in #root, its title, and the pre-paint script's code
 * inline first in <head> in place of the entry's script tag.
 */
export function fillTemplate(template: string, page: PrerenderedPage, render: PageRender, prePaint: string, buildId: string): string {
  if (!template.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root to fill');
  // The code goes between the tags as it is (its hash is over these bytes): nothing in it may end the element.
  if (/<\/script|<!--/i.test(prePaint)) throw new Error('The pre-paint script cannot be inlined: it holds </script or <!--');
  if (!ENTRY_SCRIPT.test(template)) throw new Error('index.html has no entry script to take over');
  // React puts the preloads it asks for (the images above the fold) first: they belong in <head>.
  const preloads = page.html.match(/^(?:<link [^>]*\/>)*/)?.[0] ?? '';
  const body = page.html.slice(preloads.length);
  const mark = render.kind === 'route' ? ` ${PRERENDER_ATTRIBUTE}="${escapeHtml(render.route)}"` : '';
  const membersOnly = render.kind === 'frame' && render.membersOnly ? ` ${MEMBERS_ONLY_ATTRIBUTE}` : '';
  return (
    template
      .replace(
        /<html lang="[^"]*"/,
        // data-build names the build in the page itself (the entry sets it too, for the dev server).
        `<html lang="${PRERENDER_LANGUAGE}" data-build="${escapeHtml(buildId)}" data-prerender-lang="${PRERENDER_LANGUAGE}" data-prerender-theme="${DEFAULT_THEME}" data-prerender-color-scheme="${DEFAULT_COLOR_SCHEME}" data-theme="${DEFAULT_THEME}"${membersOnly}`,
      )
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
      .replace(ENTRY_SCRIPT, '')
      // The pre-paint script is inline, first in <head>: it runs as the parser meets it, before the
      // body is parsed and before any frame, so the first one has the member's theme and language,
      // and the first paint waits for no request (as an external render-blocking file, it waited
      // for one round trip: 300-450 ms later in Lighthouse's simulation). It reads only <html>,
      // storage and navigator, so nothing it needs comes later in the document. The strict CSP
      // allows it by its hash (scriptHashSource), which the build writes for the server. (A function
      // as the replacement: the code may hold `$&` or `$'`, which a replacement string expands.)
      .replace(/<meta name="viewport"[^>]*>/, (meta) => `${meta}\n    <script>${prePaint}</script>`)
      .replace('</head>', `  ${preloads}\n  </head>`)
      .replace('<div id="root"></div>', `<div id="root"${mark}>${body}</div>`)
  );
}

/**
 * Prerenders each page of src/prerender/pages.ts with React's static rendering, through a Vite
 * server in SSR mode (the app's own modules and transforms), into the build's HTML files.
 */
export function prerenderPages(appPlugins: () => PluginOption[], define: Record<string, string>): Plugin {
  let root = process.cwd();
  return {
    name: 'circle:prerender',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') throw new Error('index.html is missing from the bundle');
      const template = String(index.source);
      const buildId = JSON.parse(define.__BUILD_ID__ ?? '"dev"') as string;
      const entry = ENTRY_SCRIPT.exec(template)?.[1];
      if (!entry) throw new Error('index.html has no entry script');
      const prePaint = await compilePrePaint(root, entry);
      this.emitFile({
        type: 'asset',
        fileName: SCRIPT_HASHES_FILE,
        source: `${JSON.stringify({ 'script-src': [scriptHashSource(prePaint)] }, null, 2)}\n`,
      });
      const server = await createServer({
        configFile: false,
        root,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        plugins: appPlugins(),
        define,
      });
      try {
        const renderer = (await server.ssrLoadModule('/src/prerender/render-page.tsx')) as Renderer;
        for (const { file, render } of pagesToPrerender()) {
          const page =
            render.kind === 'route'
              ? await renderer.renderRoute(render.route, render.path)
              : await renderer.renderFrame(render.layout, render.path, render.title);
          const html = fillTemplate(template, page, render, prePaint, buildId);
          if (file === 'index.html') index.source = html;
          else this.emitFile({ type: 'asset', fileName: file, source: html });
        }
      } finally {
        await server.close();
      }
    },
  };
}
