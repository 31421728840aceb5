// @vitest-environment node
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerFile, loadStaticFiles, type StaticFile } from './static-files.ts';

let dir: string;
let files: Map<string, StaticFile>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'circle-static-unit-'));
  writeFileSync(join(dir, 'notes.txt'), 'hello, world');
  writeFileSync(join(dir, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
  files = loadStaticFiles(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const get = (pathname: string, headers: Record<string, string | string[]> = {}) =>
  answerFile({ method: 'GET', target: pathname, pathname, headers }, files, {});

describe('files of the build', () => {
  it('are typed by their extension, and a file of an unknown one is sent as bytes', () => {
    expect(get('/notes.txt').headers['content-type']).toBe('text/plain; charset=utf-8');
    const blob = get('/blob.bin');
    expect(blob.status).toBe(200);
    expect(blob.headers['content-type']).toBe('application/octet-stream');
    expect(blob.body).toEqual(Buffer.from([0, 1, 2, 3]));
  });

  it('answer a range under a matching If-Range, and the whole body under a repeated one', () => {
    const etag = files.get('/notes.txt')!.etag;
    const ranged = get('/notes.txt', { range: 'bytes=0-4', 'if-range': etag });
    expect(ranged.status).toBe(206);
    expect(ranged.body?.toString()).toBe('hello');
    const repeated = get('/notes.txt', { range: 'bytes=0-4', 'if-range': [etag, etag] });
    expect(repeated.status).toBe(200);
    expect(repeated.body?.toString()).toBe('hello, world');
  });
});

/** A directory with a compressible file large enough to have both brotli and gzip forms, an app shell and an empty file. */
function richBuild(): Map<string, StaticFile> {
  writeFileSync(join(dir, 'big.txt'), 'circle '.repeat(400));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Circle</title>');
  writeFileSync(join(dir, 'empty.txt'), '');
  return loadStaticFiles(dir);
}

const request = (method: string, target: string, headers: Record<string, string | string[]> = {}, pathname = target) =>
  answerFile({ method, target, pathname, headers }, files, {});

const messageOf = (answer: { body: Buffer | null }) => (JSON.parse(answer.body!.toString()) as { message: string }).message;

describe('error answers', () => {
  it('name the refused method, the path that leaves the app and the missing file', () => {
    const post = request('POST', '/notes.txt');
    expect(post.status).toBe(405);
    expect(messageOf(post)).toBe('Method not allowed');
    const leaving = request('GET', '/a/../notes.txt', {}, '/notes.txt');
    expect(leaving.status).toBe(400);
    expect(messageOf(leaving)).toBe('The path leaves the app');
    const missing = get('/missing.txt');
    expect(missing.status).toBe(404);
    expect(messageOf(missing)).toBe("No file at '/missing.txt'");
  });

  it('say the range lies outside the file, and still vary by Accept-Encoding', () => {
    const answer = get('/notes.txt', { range: 'bytes=50-60' });
    expect(answer.status).toBe(416);
    expect(messageOf(answer)).toBe('The range lies outside the file');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers['content-range']).toBe('bytes */12');
  });
});

describe('paths', () => {
  it('refuse a dot segment only when a whole segment is dots', () => {
    expect(get('/notes.').status).toBe(404);
    expect(get('/.well-known/thing.txt').status).toBe(404);
    expect(get('/%2e%2E/notes.txt').status).toBe(400);
  });

  it('refuse a single dot segment that decoding revealed', () => {
    const answer = request('GET', '/a/.%2fnotes.txt', {}, '/a/./notes.txt');
    expect(answer.status).toBe(400);
  });

  it('take a path with a dot inside, not at the end, for a page, not a file', () => {
    files = richBuild();
    const answer = get('/people/jane.doe/profile');
    // No route has it: not found, but as a page (this build has no 404.html: the app shell).
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body?.toString()).toContain('<title>Circle</title>');
  });

  it('answer a path no route has 404 with the not-found page, whole, at that address', () => {
    writeFileSync(join(dir, '404.html'), '<!doctype html><title>Page not found</title>');
    files = richBuild();
    const answer = get('/nope/deeper');
    expect(answer.status).toBe(404);
    expect(answer.body?.toString()).toContain('<title>Page not found</title>');
    // Never a 304 or a range of it.
    expect(get('/nope/deeper', { 'if-none-match': answer.headers.etag! }).status).toBe(404);
    expect(get('/nope/deeper', { range: 'bytes=0-4' }).status).toBe(404);
    // The app's own paths keep their pages.
    expect(get('/auth/callback').status).toBe(200);
    expect(get('/admin/symbols').status).toBe(200);
  });
});

describe('Accept-Encoding', () => {
  beforeEach(() => {
    files = richBuild();
  });
  const codingFor = (accept: string) => get('/big.txt', { 'accept-encoding': accept }).headers['content-encoding'];

  it('tags each compressed form with the body tag plus its coding', () => {
    const etag = files.get('/big.txt')!.etag;
    expect(get('/big.txt', { 'accept-encoding': 'br' }).headers.etag).toBe(`${etag.slice(0, -1)}-br"`);
    expect(get('/big.txt', { 'accept-encoding': 'gzip' }).headers.etag).toBe(`${etag.slice(0, -1)}-gzip"`);
  });

  it('reads q only from a parameter named q, with spaces around =', () => {
    expect(codingFor('br;xq=0')).toBe('br');
    expect(codingFor('br;q = 0')).toBeUndefined();
    expect(codingFor('br;q = 0.5')).toBe('br');
    expect(codingFor('gzip;q = 0.5, br;q=0.4')).toBe('gzip');
  });

  it('ignores an entry whose q lies outside 0 to 1', () => {
    expect(codingFor('br;q=2')).toBeUndefined();
    expect(codingFor('*, br;q=-1')).toBe('br');
    expect(codingFor('br;q=abc')).toBeUndefined();
  });
});

describe('If-None-Match', () => {
  it('matches * with spaces around it', () => {
    expect(get('/notes.txt', { 'if-none-match': ' * ' }).status).toBe(304);
  });
});

describe('Range', () => {
  const range = (value: string, path = '/notes.txt') => {
    const answer = get(path, { range: value });
    return [answer.status, answer.body?.toString()];
  };

  it('allows spaces around each part, and nothing before bytes', () => {
    expect(range(' bytes = 0 - 4 ')).toEqual([206, 'hello']);
    expect(range('xbytes=0-4')).toEqual([200, 'hello, world']);
  });

  it('answers a one-byte range, and ignores a range that ends before it starts', () => {
    expect(range('bytes=3-3')).toEqual([206, 'l']);
    expect(range('bytes=4-3')).toEqual([200, 'hello, world']);
  });

  it('ignores bytes=- and refuses a suffix of an empty file', () => {
    expect(range('bytes=-')).toEqual([200, 'hello, world']);
    files = richBuild();
    const empty = get('/empty.txt', { range: 'bytes=-5' });
    expect(empty.status).toBe(416);
    expect(empty.headers['content-range']).toBe('bytes */0');
  });

  it('is not applied to HEAD, which describes the whole body', () => {
    const answer = request('HEAD', '/notes.txt', { range: 'bytes=0-4' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-length']).toBe('12');
    expect(answer.headers['content-range']).toBeUndefined();
    expect(answer.body).toBeNull();
  });
});

describe('If-Range', () => {
  const withIfRange = (value: string) => get('/notes.txt', { range: 'bytes=0-4', 'if-range': value }).status;

  it('trims the value before reading the tag', () => {
    expect(withIfRange(` ${files.get('/notes.txt')!.etag} `)).toBe(206);
  });

  it('honours the date it carries', () => {
    expect(withIfRange(files.get('/notes.txt')!.lastModified)).toBe(206);
  });

  it('judges a value that starts like an entity tag as one, never as a date', () => {
    const date = files.get('/notes.txt')!.lastModified;
    expect(withIfRange(`"${date}`)).toBe(200);
    expect(withIfRange(`W/${date}`)).toBe(200);
    expect(withIfRange(`W/${files.get('/notes.txt')!.etag}`)).toBe(200);
  });
});

describe('XSRF-TOKEN on pages', () => {
  beforeEach(() => {
    files = richBuild();
  });
  const setsCookie = (cookie: string) => get('/index.html', { cookie }).headers['set-cookie'] !== undefined;

  it('is kept when the cookie header has it in any position, with or without a space after ;', () => {
    expect(setsCookie('a=1;XSRF-TOKEN=x')).toBe(false);
    expect(setsCookie('a=1;  XSRF-TOKEN=x')).toBe(false);
    expect(setsCookie('a=1; NOT-XSRF-TOKEN=x')).toBe(true);
  });
});

describe('reading a build', () => {
  const put = (path: string, content: string | Buffer) => {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  };
  const cacheOf = (build: Map<string, StaticFile>, path: string) => build.get(path)?.cacheControl;

  it('caches for a year only a file under /assets/ named with a content hash of 8 characters, one of them no lowercase letter', () => {
    const year = ['/assets/app-Ab3dEf_h.js', '/assets/deep/name.v2-A1b2c3d4.css'];
    const revalidated = [
      // All lowercase: a word of the name (`-abcdefgh`), not a hash.
      '/assets/x-abcdefgh.js',
      '/assets/x-Ab3dEf.js',
      '/assets/x-Ab3dEfGhI.js',
      '/app-Ab3dEf_h.js',
      '/sub/assets/app-Ab3dEf_h.js',
      '/assets/app-Ab3dEf_h.js.txt',
    ];
    for (const path of [...year, ...revalidated]) put(path.slice(1), 'x');
    const build = loadStaticFiles(dir);
    for (const path of year) expect(cacheOf(build, path), path).toBe('public, max-age=31536000, immutable');
    for (const path of [...revalidated, '/notes.txt']) expect(cacheOf(build, path), path).toBe('no-cache');
  });

  it('leaves out dot folders, precompressed copies and source maps, and names nested files by their URL path', () => {
    put('.vite/manifest.json', '{}');
    put('a.name.with.dots.txt', 'kept');
    put('assets/app.js.br', 'x');
    put('assets/app.js.gz', 'x');
    put('assets/app.js.map', '{}');
    put('assets/app.js', 'x');
    const build = loadStaticFiles(dir);
    expect([...build.keys()].sort()).toEqual(['/a.name.with.dots.txt', '/assets/app.js', '/blob.bin', '/notes.txt']);
  });

  it('tags each file with the first 20 characters of its SHA-1 in base64url, quoted', () => {
    const build = loadStaticFiles(dir);
    const sha1 = createHash('sha1').update('hello, world').digest('base64url').slice(0, 20);
    expect(build.get('/notes.txt')?.etag).toBe(`"${sha1}"`);
  });

  it('keeps brotli (quality 11) and gzip (level 9) copies of a text file over 512 bytes, when they are smaller', () => {
    const text = Buffer.from(Array.from({ length: 40 }, (_, i) => `line ${i} of the circle build, ${i * 7919}\n`).join(''));
    put('big.js', text);
    put('edge.txt', 'a'.repeat(512));
    put('over.txt', 'a'.repeat(513));
    put('big.png', text);
    put('noise.txt', randomBytes(4096));
    const build = loadStaticFiles(dir);
    const big = build.get('/big.js')!;
    expect(big.gzip).toEqual(gzipSync(text, { level: 9 }));
    expect(big.br).toEqual(
      brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: text.length } }),
    );
    expect([build.get('/edge.txt')?.br, build.get('/edge.txt')?.gzip]).toEqual([undefined, undefined]);
    expect(build.get('/over.txt')?.gzip).toBeDefined();
    // Not a type worth compressing, however large.
    expect([build.get('/big.png')?.br, build.get('/big.png')?.gzip]).toEqual([undefined, undefined]);
    // Random bytes do not shrink: no copy larger than the file itself is kept.
    expect([build.get('/noise.txt')?.br, build.get('/noise.txt')?.gzip]).toEqual([undefined, undefined]);
  });

  it('takes the compressed copies of a file whose content a site given to reuse held, under any path; others are compressed afresh', () => {
    // Over 512 bytes, so that each file has compressed copies to reuse.
    const text = (word: string) => Buffer.from(Array.from({ length: 200 }, (_, i) => `${word} ${i}\n`).join(''));
    put('same.js', text('same'));
    put('changed.js', text('before'));
    const first = loadStaticFiles(dir);
    put('changed.js', text('after'));
    put('assets/moved-Ab3dEf_h.js', text('same'));
    const second = loadStaticFiles(dir, [new Map(), first]);
    // The very buffers: nothing was compressed again.
    expect(first.get('/same.js')?.br).toBeDefined();
    expect(second.get('/same.js')?.br).toBe(first.get('/same.js')?.br);
    expect(second.get('/same.js')?.gzip).toBe(first.get('/same.js')?.gzip);
    expect(second.get('/assets/moved-Ab3dEf_h.js')?.br).toBe(first.get('/same.js')?.br);
    expect(second.get('/changed.js')?.gzip).toEqual(gzipSync(text('after'), { level: 9 }));
    expect(second.get('/changed.js')?.br).not.toBe(first.get('/changed.js')?.br);
    // Compressing nothing again is not serving stale bytes: each form decodes to the file.
    expect(brotliDecompressSync(second.get('/changed.js')!.br!)).toEqual(text('after'));
  });

  it('keeps no copy exactly as long as the file: the client would decode it for nothing', () => {
    // Bytes that do not shrink, then a run that does: somewhere along the run, each coding's
    // copy comes out exactly as long as the file. Searched for, so that no zlib version matters.
    let seed = Buffer.from('circle');
    const noise = Buffer.concat(
      Array.from({ length: 19 }, () => {
        seed = createHash('sha256').update(seed).digest();
        return seed;
      }),
    ).subarray(0, 600);
    const evenFor = (size: (body: Buffer) => number) => {
      for (let run = 0; run < 200; run++) {
        const body = Buffer.concat([noise, Buffer.alloc(run, 'a')]);
        if (size(body) === body.length) return body;
      }
      throw new Error('no body found whose copy is exactly as long');
    };
    put(
      'even-br.txt',
      evenFor((body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length),
    );
    put(
      'even-gzip.txt',
      evenFor((body) => gzipSync(body, { level: 9 }).length),
    );
    files = loadStaticFiles(dir);
    expect(files.get('/even-br.txt')?.br).toBeUndefined();
    expect(files.get('/even-gzip.txt')?.gzip).toBeUndefined();
    expect(get('/even-br.txt', { 'accept-encoding': 'br' }).headers['content-encoding']).toBeUndefined();
    expect(get('/even-gzip.txt', { 'accept-encoding': 'gzip' }).headers['content-encoding']).toBeUndefined();
  });
});
