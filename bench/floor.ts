/**
 * The machine's floor: the figures of two pages that do next to nothing, measured by the same
 * browser, throttling and response headers as the app, in the same run. Lighthouse's simulation
 * multiplies the CPU time it observes (4× on mobile), so a slower or busier machine moves every
 * timing; read beside the floor, a route's figure says what the app adds to it.
 *
 * - `bare`: a heading, a paragraph, a stylesheet and a favicon.
 * - `script`: the same with one small render-blocking script in <head>, as the app's pre-paint
 *   script is: what any script the first paint waits for costs here.
 */
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contentSecurityPolicy, securityHeaders } from '../server/index.ts';

export const FLOOR_PAGES = { bare: '/', script: '/script' } as const;
export type FloorPage = keyof typeof FLOOR_PAGES;

const STYLESHEET = 'body{margin:0 auto;max-width:40rem;padding:1rem;font:1rem/1.5 system-ui,sans-serif;color:#1b1b1f;background:#fff}';
const SCRIPT = "document.documentElement.setAttribute('data-floor', '');\n";

/** One of the floor's pages: the same markup either way, with or without the script. */
export function floorPage(page: FloorPage): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    page === 'script' ? '<script defer blocking="render" src="/floor.js"></script>' : '',
    '<title>Floor</title>',
    '<meta name="description" content="A page that does next to nothing, to measure the machine by.">',
    '<link rel="stylesheet" href="/floor.css">',
    '</head>',
    '<body><main>',
    '<h1>The floor</h1>',
    '<p>One paragraph, long enough to be the largest element on the page, painted with the first frame from the HTML alone.</p>',
    '</main></body>',
    '</html>',
  ]
    .filter(Boolean)
    .join('\n');
}

export interface FloorServer {
  url: string;
  close: () => Promise<void>;
}

/**
 * Serves the floor's pages on 127.0.0.1 with the app's security headers (its cross-origin opener
 * policy alone moves the first paint: the page gets a browsing context group of its own). The
 * favicon is the build's own when `favicon` names a file, so the browser fetches what it does for
 * the app.
 */
export async function startFloorServer(favicon?: string): Promise<FloorServer> {
  const icon = favicon ? readFileSync(favicon) : null;
  const headers = securityHeaders(contentSecurityPolicy());
  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
    res.writeHead(status, { ...headers, 'content-type': type, 'cache-control': 'no-cache', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://floor').pathname;
    if (path === FLOOR_PAGES.bare) send(res, 200, 'text/html; charset=utf-8', floorPage('bare'));
    else if (path === FLOOR_PAGES.script) send(res, 200, 'text/html; charset=utf-8', floorPage('script'));
    else if (path === '/floor.css') send(res, 200, 'text/css; charset=utf-8', STYLESHEET);
    else if (path === '/floor.js') send(res, 200, 'text/javascript; charset=utf-8', SCRIPT);
    else if (path === '/favicon.ico' && icon) send(res, 200, 'image/x-icon', icon);
    else send(res, 404, 'text/plain; charset=utf-8', 'Not found');
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
