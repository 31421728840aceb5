/**
 * The Node server's answers for the built app: validators and 304s, cache lifetimes, precompressed
 * bodies, HEAD, byte ranges, paths that try to leave the build, methods. Requests go through
 * node:http, which sends the path exactly as written and hands back the bytes undecoded.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, startServer, type RunningServer } from '../server/index.ts';
import { answerFile, type StaticFile } from '../server/index.ts';

const APP_JS = Array.from({ length: 80 }, (_, i) => `export const line${i} = 'line ${i} of the app';\n`).join('');
const SIZE = Buffer.byteLength(APP_JS);
const APP = '/assets/app-AbCdEf12.js';
const SECRET = 'outside the build';
/** The hash source of the build's inline pre-paint script, as the build states it. */
const INLINE_SCRIPT = "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='";

const BUILD: Record<string, string> = {
  'index.html': '<!doctype html><title>shell</title>',
  'home.html': '<!doctype html><title>home</title>',
  'assets/app-AbCdEf12.js': APP_JS,
  'assets/theme-settings.css': 'body{margin:0}',
  'sw.js': 'self.skipWaiting();',
  'manifest.webmanifest': JSON.stringify({ name: 'Circle', start_url: '/' }),
  // What no build writes is ignored: a source that is no SHA-256 hash cannot loosen script-src.
  '.csp-script-hashes.json': JSON.stringify({
    'script-src': [INLINE_SCRIPT, "'unsafe-inline'", "'sha256-short='", 'https://elsewhere.example.org'],
  }),
};

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let root: string;
let server: RunningServer;

function writeBuild(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** One request with the path sent verbatim (fetch would resolve `..` and re-encode it first). */
function send(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const json = (reply: Reply): unknown => JSON.parse(reply.body.toString('utf8'));

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'circle-static-'));
  // A file beside the build, where a path that climbed out of it would land.
  writeFileSync(join(root, 'secret.txt'), SECRET);
  writeBuild(join(root, 'dist'), BUILD);
  server = await startServer({ port: 0, delayMs: 0, distDir: join(root, 'dist') });
});

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('ETag and conditional requests', () => {
  it('tags each file with a strong ETag, and each compressed form with its own', async () => {
    const plain = await send(APP);
    const again = await send(APP);
    const br = await send(APP, { 'accept-encoding': 'br' });
    const gzip = await send(APP, { 'accept-encoding': 'gzip' });
    expect(plain.headers.etag).toMatch(/^"[^"]+"$/);
    expect(again.headers.etag).toBe(plain.headers.etag);
    expect(new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);
    expect(br.headers.etag).toMatch(/^"[^"]+"$/);
    expect((await send('/sw.js')).headers.etag).not.toBe(plain.headers.etag);
  });

  it('answers If-None-Match with the exact tag by 304: ETag, Cache-Control and Vary, no body', async () => {
    const { headers } = await send(APP, { 'accept-encoding': 'br' });
    const reply = await send(APP, { 'accept-encoding': 'br', 'if-none-match': headers.etag! });
    expect(reply.status).toBe(304);
    expect(reply.headers.etag).toBe(headers.etag);
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(reply.headers.vary).toBe('Accept-Encoding');
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.body.length).toBe(0);
  });

  it('matches a tag anywhere in a list', async () => {
    const { headers } = await send('/sw.js');
    const reply = await send('/sw.js', { 'if-none-match': `"stale", ${headers.etag}, "older"` });
    expect(reply.status).toBe(304);
    expect(reply.headers.etag).toBe(headers.etag);
  });

  it('compares weakly: W/ before the tag still matches', async () => {
    const { headers } = await send('/index.html');
    const reply = await send('/index.html', { 'if-none-match': `"stale", W/${headers.etag}` });
    expect(reply.status).toBe(304);
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers.vary).toBe('Accept-Encoding');
  });

  it('answers If-None-Match: * by 304 for any existing file', async () => {
    for (const path of [APP, '/manifest.webmanifest']) {
      const reply = await send(path, { 'if-none-match': '*' });
      expect(reply.status, path).toBe(304);
      expect(reply.headers.etag, path).toMatch(/^"[^"]+"$/);
      expect(reply.body.length, path).toBe(0);
    }
  });

  it('answers a tag that does not match, or that belongs to another coding, by 200 with the body', async () => {
    const stale = await send(APP, { 'if-none-match': '"stale", W/"older"' });
    expect(stale.status).toBe(200);
    expect(stale.body.toString()).toBe(APP_JS);
    const { headers } = await send(APP, { 'accept-encoding': 'br' });
    const other = await send(APP, { 'if-none-match': headers.etag! });
    expect(other.status).toBe(200);
    expect(other.body.toString()).toBe(APP_JS);
  });

  it('consults If-Modified-Since only without If-None-Match', async () => {
    const { headers } = await send('/sw.js');
    const lastModified = headers['last-modified']!;
    const future = new Date(Date.now() + 86_400_000).toUTCString();
    const past = new Date(Date.parse(lastModified) - 86_400_000).toUTCString();
    expect((await send('/sw.js', { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await send('/sw.js', { 'if-modified-since': past })).status).toBe(200);
    const both = await send('/sw.js', { 'if-none-match': '"stale"', 'if-modified-since': future });
    expect(both.status).toBe(200);
    expect(both.body.toString()).toBe(BUILD['sw.js']);
  });
});

describe('Cache-Control', () => {
  it('caches hashed assets for a year as immutable', async () => {
    expect((await send(APP)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates the HTML, the worker, the manifest, app routes and unhashed assets', async () => {
    const revalidated = [
      '/',
      '/home',
      '/index.html',
      '/home.html',
      '/sw.js',
      '/manifest.webmanifest',
      '/settings',
      '/assets/theme-settings.css',
    ];
    for (const path of revalidated) {
      const reply = await send(path);
      expect(reply.status, path).toBe(200);
      expect(reply.headers['cache-control'], path).toBe('no-cache');
    }
  });
});

describe('Precompressed bodies', () => {
  const decoded = (reply: Reply): string => {
    const coding = reply.headers['content-encoding'];
    if (coding === 'br') return brotliDecompressSync(reply.body).toString();
    if (coding === 'gzip') return gunzipSync(reply.body).toString();
    return reply.body.toString();
  };

  it('sends brotli when accepted, with the Content-Length of the brotli body', async () => {
    const reply = await send(APP, { 'accept-encoding': 'gzip, deflate, br' });
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers.vary).toBe('Accept-Encoding');
    expect(Number(reply.headers['content-length'])).toBe(reply.body.length);
    expect(reply.body.length).toBeLessThan(SIZE);
    expect(decoded(reply)).toBe(APP_JS);
  });

  it('respects q-values: q=0 refuses a coding, the highest q wins, * stands for the codings not named', async () => {
    const cases: Array<[string, string | undefined]> = [
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0.4, gzip;q=0.5', 'gzip'],
      ['gzip;q=0.5, br;q=0.5', 'br'],
      ['*', 'br'],
      ['*, br;q=0', 'gzip'],
      ['*;q=0.1, gzip;q=0', 'br'],
      ['x-gzip', 'gzip'],
      ['*;q=0', undefined],
      ['gzip;q=0, br;q=0', undefined],
      ['deflate', undefined],
    ];
    for (const [accept, coding] of cases) {
      const reply = await send(APP, { 'accept-encoding': accept });
      expect(reply.headers['content-encoding'], accept).toBe(coding);
      expect(Number(reply.headers['content-length']), accept).toBe(reply.body.length);
      expect(decoded(reply), accept).toBe(APP_JS);
    }
  });

  it('falls back to the identity body, still with Vary: Accept-Encoding', async () => {
    for (const [path, accept] of [
      [APP, ''],
      [APP, 'identity'],
      ['/sw.js', 'br, gzip'],
    ] as const) {
      const reply = await send(path, accept ? { 'accept-encoding': accept } : {});
      expect(reply.headers['content-encoding'], `${path} ${accept}`).toBeUndefined();
      expect(reply.headers.vary, `${path} ${accept}`).toBe('Accept-Encoding');
      expect(Number(reply.headers['content-length']), `${path} ${accept}`).toBe(reply.body.length);
    }
  });
});

describe('HEAD', () => {
  const comparable = (headers: IncomingHttpHeaders) => {
    const { date: _date, 'set-cookie': _cookie, ...rest } = headers;
    return rest;
  };

  it('answers the headers GET would, with the Content-Length of the body GET would send, and no body', async () => {
    for (const [path, accept] of [
      [APP, 'br'],
      [APP, 'gzip'],
      [APP, ''],
      ['/', ''],
    ] as const) {
      const get = await send(path, { 'accept-encoding': accept });
      const head = await send(path, { 'accept-encoding': accept }, 'HEAD');
      expect(head.status).toBe(200);
      expect(comparable(head.headers), `${path} ${accept}`).toEqual(comparable(get.headers));
      expect(Number(head.headers['content-length'])).toBe(get.body.length);
      expect(head.headers['set-cookie'] === undefined, path).toBe(get.headers['set-cookie'] === undefined);
      expect(head.body.length).toBe(0);
    }
  });
});

describe('Byte ranges', () => {
  it('advertises Accept-Ranges: bytes', async () => {
    expect((await send(APP)).headers['accept-ranges']).toBe('bytes');
  });

  it('answers one range of the identity body by 206 with Content-Range, never compressed', async () => {
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, SIZE - 1],
      ['bytes=-10', SIZE - 10, SIZE - 1],
      [`bytes=${SIZE - 5}-${SIZE + 1000}`, SIZE - 5, SIZE - 1],
    ];
    for (const [range, start, end] of cases) {
      const reply = await send(APP, { range, 'accept-encoding': 'br, gzip' });
      expect(reply.status, range).toBe(206);
      expect(reply.headers['content-range'], range).toBe(`bytes ${start}-${end}/${SIZE}`);
      expect(reply.headers['accept-ranges'], range).toBe('bytes');
      expect(reply.headers['content-encoding'], range).toBeUndefined();
      expect(reply.headers.vary, range).toBe('Accept-Encoding');
      expect(Number(reply.headers['content-length']), range).toBe(end - start + 1);
      expect(reply.body.toString(), range).toBe(APP_JS.slice(start, end + 1));
    }
  });

  it('answers a range past the end by 416 with Content-Range: bytes */SIZE', async () => {
    for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 10}-${SIZE + 20}`, 'bytes=-0']) {
      const reply = await send(APP, { range });
      expect(reply.status, range).toBe(416);
      expect(reply.headers['content-range'], range).toBe(`bytes */${SIZE}`);
      expect(json(reply)).toEqual({ status: 416, error: 'Range Not Satisfiable', message: expect.any(String) });
    }
  });

  it('answers several ranges, a malformed range or another unit with the whole body', async () => {
    for (const range of ['bytes=0-1, 5-6', 'bytes=9-3', 'bytes=x-y', 'items=0-1']) {
      const reply = await send(APP, { range });
      expect(reply.status, range).toBe(200);
      expect(reply.body.toString(), range).toBe(APP_JS);
    }
  });

  it('honours If-Range only for the current strong tag or date, else sends the whole body', async () => {
    const { headers } = await send(APP);
    const { headers: brHeaders } = await send(APP, { 'accept-encoding': 'br' });
    const partial = await send(APP, { range: 'bytes=0-9', 'if-range': headers.etag! });
    expect(partial.status).toBe(206);
    expect(partial.headers.etag).toBe(headers.etag);
    const byDate = await send(APP, { range: 'bytes=0-9', 'if-range': headers['last-modified']! });
    expect(byDate.status).toBe(206);
    for (const ifRange of ['"stale"', `W/${headers.etag}`, brHeaders.etag!, 'Thu, 01 Jan 1970 00:00:00 GMT']) {
      const whole = await send(APP, { range: 'bytes=0-9', 'if-range': ifRange });
      expect(whole.status, ifRange).toBe(200);
      expect(whole.body.toString(), ifRange).toBe(APP_JS);
    }
  });
});

describe('Paths that leave the build', () => {
  const attempts = [
    '/../secret.txt',
    '/../../../../etc/passwd',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2E%2e/%2e%2e/secret.txt',
    '/.%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/assets%5c..%5c..%5csecret.txt',
    '/..\\secret.txt',
    '/index.html%00',
    '/%00',
    '/assets/app-AbCdEf12.js%00.txt',
  ];

  it.each(attempts)('refuses %s with 400 and the JSON error body', async (path) => {
    const reply = await send(path);
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(json(reply)).toEqual({ status: 400, error: 'Bad Request', message: expect.any(String) });
    expect(reply.body.toString()).not.toContain(SECRET);
  });

  it('refuses a decoded path with .. or NUL before looking it up', () => {
    // A map that holds exactly the paths a lookup would find: only the refusal keeps them out.
    const file = (text: string): StaticFile => ({
      body: Buffer.from(text),
      type: 'text/plain; charset=utf-8',
      etag: '"x"',
      lastModified: new Date(0).toUTCString(),
      cacheControl: 'no-cache',
    });
    const files = new Map([
      ['/assets/../secret.txt', file(SECRET)],
      ['/secret\0.txt', file(SECRET)],
      ['/index.html', file('shell')],
    ]);
    for (const [target, pathname] of [
      ['/assets/..%2fsecret.txt', '/assets/../secret.txt'],
      ['/secret%00.txt', '/secret\0.txt'],
    ] as const) {
      const answer = answerFile({ method: 'GET', target, pathname, headers: {} }, files, {});
      expect(answer.status, target).toBe(400);
      expect(answer.body?.toString(), target).not.toContain(SECRET);
    }
  });
});

describe('The rest of what the server does for files', () => {
  it('answers any method but GET and HEAD by 405 with Allow: GET, HEAD', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const reply = await send('/index.html', {}, method);
      expect(reply.status, method).toBe(405);
      expect(reply.headers.allow, method).toBe('GET, HEAD');
      expect(json(reply), method).toEqual({ status: 405, error: 'Method Not Allowed', message: expect.any(String) });
    }
  });

  it('serves home.html for / and /home, the shell for other app routes, a page with 404 for no route, and the JSON 404 for a missing file', async () => {
    expect((await send('/')).body.toString()).toBe(BUILD['home.html']);
    expect((await send('/home')).body.toString()).toBe(BUILD['home.html']);
    expect((await send('/auth/callback')).body.toString()).toBe(BUILD['index.html']);
    // No route has it: 404, with the not-found page (this build has none: the shell renders it).
    const unknown = await send('/profile/edit');
    expect(unknown.status).toBe(404);
    expect(unknown.body.toString()).toBe(BUILD['index.html']);
    const missing = await send('/assets/missing-AbCdEf12.js');
    expect(missing.status).toBe(404);
    expect(json(missing)).toEqual({ status: 404, error: 'Not Found', message: expect.any(String) });
  });

  it('keeps the security headers and sets XSRF-TOKEN on HTML only, when the client has none', async () => {
    const page = await send('/settings');
    // script-src: the origin and the build's inline script by its hash, nothing else the file named.
    expect(page.headers['content-security-policy']).toBe(contentSecurityPolicy({}, [INLINE_SCRIPT]));
    expect(page.headers['content-security-policy']).toContain(`script-src 'self' ${INLINE_SCRIPT};`);
    expect((await send('/.csp-script-hashes.json')).status).toBe(404);
    expect(page.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['set-cookie']?.[0]).toMatch(/^XSRF-TOKEN=[\w-]+; Path=\/; SameSite=Strict$/);
    expect((await send('/settings', { cookie: 'XSRF-TOKEN=abc' })).headers['set-cookie']).toBeUndefined();
    expect((await send(APP)).headers['set-cookie']).toBeUndefined();
    expect((await send('/nowhere.js')).headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves another build after deploy, with its own tags', async () => {
    const before = await send('/index.html');
    const next = join(root, 'dist-next');
    writeBuild(next, { ...BUILD, 'index.html': '<!doctype html><title>next</title>' });
    server.deploy(next);
    try {
      const after = await send('/index.html', { 'if-none-match': before.headers.etag! });
      expect(after.status).toBe(200);
      expect(after.body.toString()).toBe('<!doctype html><title>next</title>');
    } finally {
      server.deploy(join(root, 'dist'));
    }
  });
});
