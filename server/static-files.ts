import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isAppPath, pageFileFor } from '../src/index.ts';
import { errorBody } from '../mock-api/index.ts';

/** One file of the build, held in memory with its compressed forms. */
export interface StaticFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  type: string;
  /** The strong tag of the uncompressed body; each compressed form has its own (see tagOf). */
  etag: string;
  lastModified: string;
  cacheControl: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.webmanifest', '.svg', '.txt', '.xml']);

/**
 * Hashed file names (Vite's `assets/name-HASH.ext`, 8 base64url characters) never change content:
 * cache them for a year. Everything else revalidates. A word like `settings` has the shape of a
 * hash too, so a hash must hold a character a lowercase word does not; the rare real hash without
 * one only costs a revalidation, while an unhashed file cached as immutable would never update.
 */
function cacheControlFor(path: string): string {
  const hash = /^\/assets\/.+-([A-Za-z0-9_-]{8})\.[a-z0-9]+$/.exec(path)?.[1];
  return hash && /[A-Z0-9_]/.test(hash) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

function walk(dir: string): string[] {
  // Dot folders (Vite's .vite/manifest.json) are build metadata, not part of the site.
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .flatMap((entry) => {
      const full = join(dir, entry.name);
      return entry.isDirectory() ? walk(full) : [full];
    });
}

/**
 * Reads a build folder once, compressing each text file with brotli and gzip ahead of any request.
 * Brotli at its best quality costs about half a second for a build: a file whose content a site
 * given in `reuse` already held (the builds served before, by the strong tag) keeps its forms.
 */
export function loadStaticFiles(dir: string, reuse: ReadonlyArray<ReadonlyMap<string, StaticFile>> = []): Map<string, StaticFile> {
  const known = new Map<string, StaticFile>();
  for (const site of reuse) for (const file of site.values()) known.set(file.etag, file);
  const files = new Map<string, StaticFile>();
  for (const full of walk(dir)) {
    const ext = extname(full);
    if (ext === '.br' || ext === '.gz' || ext === '.map') continue;
    const path = `/${relative(dir, full).split(sep).join('/')}`;
    const body = readFileSync(full);
    const file: StaticFile = {
      body,
      type: TYPES[ext] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`,
      lastModified: statSync(full).mtime.toUTCString(),
      cacheControl: cacheControlFor(path),
    };
    const same = known.get(file.etag);
    if (same?.body.equals(body)) {
      if (same.br) file.br = same.br;
      if (same.gzip) file.gzip = same.gzip;
    } else if (COMPRESSIBLE.has(ext) && body.length > 512) {
      const br = brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
      const gzip = gzipSync(body, { level: 9 });
      if (br.length < body.length) file.br = br;
      if (gzip.length < body.length) file.gzip = gzip;
    }
    files.set(path, file);
  }
  return files;
}

// -------------------------------------------------------------------------------------------------
// Answering a request
// -------------------------------------------------------------------------------------------------

type Coding = 'br' | 'gzip';

/** What answerFile needs of a request; a plain object, so the rules can be checked without a socket. */
export interface FileRequest {
  method: string;
  /** The request target as it arrived: URL parsing resolves dot segments, so they are judged here. */
  target: string;
  /** The path, percent-decoded. */
  pathname: string;
  headers: IncomingHttpHeaders;
}

export interface FileAnswer {
  status: number;
  headers: Record<string, string>;
  /** Null for HEAD and 304, whose headers still describe what GET would send. */
  body: Buffer | null;
}

/**
 * A strong validator must change with the content coding (RFC 9110 §8.8.3), or a cache could join
 * a byte range of the identity body onto a brotli one: each form gets its own tag.
 */
function tagOf(file: StaticFile, coding: Coding | null): string {
  return coding ? `${file.etag.slice(0, -1)}-${coding}"` : file.etag;
}

/** The entity tags of an If-None-Match or If-Range value, with their weakness kept. */
function entityTags(value: string): Array<{ weak: boolean; tag: string }> {
  return [...value.matchAll(/(W\/)?("[^"]*")/g)].map((m) => ({ weak: m[1] !== undefined, tag: m[2]! }));
}

/**
 * If-None-Match holds the tags the client has; it is compared with the tag of the form this request
 * would get, weakly on GET and HEAD (W/"x" matches "x"). `*` matches any existing file.
 */
function noneMatch(value: string, current: string): boolean {
  return value.trim() === '*' || entityTags(value).some(({ tag }) => tag === current);
}

/** The q-value the Accept-Encoding header gives a coding: its own entry, else `*`'s, else 0. */
function weightOf(accept: string, coding: Coding): number {
  const names = coding === 'gzip' ? ['gzip', 'x-gzip'] : [coding];
  let own: number | undefined;
  let any: number | undefined;
  for (const item of accept.split(',')) {
    // Stryker disable next-line StringLiteral: split() always yields a first element, so the default is never used
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((p) => /^q\s*=/.test(p));
    const weight = q === undefined ? 1 : Number(q.replace(/^q\s*=\s*/, ''));
    if (!(weight >= 0 && weight <= 1)) continue;
    if (names.includes(name)) own = weight;
    else if (name === '*') any = weight;
  }
  return own ?? any ?? 0;
}

/** The precompressed form to send: the acceptable one with the highest q (brotli on a tie), or none. */
function chooseCoding(file: StaticFile, accept: string | undefined): Coding | null {
  if (!accept) return null;
  let best: Coding | null = null;
  let bestWeight = 0;
  for (const coding of ['br', 'gzip'] as const) {
    const weight = file[coding] ? weightOf(accept, coding) : 0;
    if (weight > bestWeight) [best, bestWeight] = [coding, weight];
  }
  return best;
}

/**
 * One `bytes=` range of a body of `size` bytes. Null when the header is to be ignored (malformed,
 * another unit, several ranges: those get the whole body); 'unsatisfiable' when it names no byte.
 */
function parseRange(value: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const spec = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(value);
  if (!spec) return null;
  // Stryker disable next-line StringLiteral: both groups are (\d*), which match (the empty string at least) whenever the pattern does
  const [, first = '', last = ''] = spec;
  if (first === '') {
    if (last === '') return null;
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/**
 * If-Range asks for the range only if the body is still the one the client holds: strong comparison.
 * A repeated If-Range is malformed; the whole body is the safe answer.
 */
function ifRangeHolds(value: string | string[] | undefined, file: StaticFile): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return false;
  const trimmed = value.trim();
  if (trimmed.startsWith('"') || trimmed.startsWith('W/')) {
    const [only] = entityTags(trimmed);
    return only !== undefined && !only.weak && only.tag === file.etag;
  }
  const date = Date.parse(trimmed);
  return !Number.isNaN(date) && date === Date.parse(file.lastModified);
}

/**
 * Files come from memory, so nothing can be read outside the build; a path that tries is refused
 * anyway, before any lookup, rather than resolved to some other file or to the app shell.
 */
function leavesTheBuild(target: string, pathname: string): boolean {
  // Stryker disable next-line StringLiteral: split() with a limit of 1 always yields one element
  const rawPath = target.split(/[?#]/, 1)[0] ?? '';
  // URL parsing would already have turned `/a/../b` and `/a/%2e%2e/b` into `/b`; backslashes are
  // separators to it as well.
  if (rawPath.split(/[/\\]/).some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) return true;
  // What decoding revealed: `..%2f`, `..%5c`, `%00`.
  return pathname.includes('\0') || pathname.split(/[/\\]/).some((segment) => segment === '..' || segment === '.');
}

function lookup(files: ReadonlyMap<string, StaticFile>, pathname: string): { file?: StaticFile; notFound?: boolean } {
  const file = files.get(pathname);
  if (file) return { file };
  // A path with a file extension names a file, and it is missing.
  if (/\.[a-z0-9]+$/i.test(pathname)) return {};
  // A path of no route is not found: the not-found page answers it, 404, at the address asked for.
  if (!isAppPath(pathname)) return { file: files.get('/404.html') ?? files.get('/index.html'), notFound: true };
  // App routes are client-side: each gets its prerendered page (home's for / too), the others the app shell.
  return { file: files.get(pageFileFor(pathname)) ?? files.get('/index.html') };
}

function errorAnswer(status: number, message: string, head: boolean, base: Record<string, string>, extra: Record<string, string> = {}) {
  const body = Buffer.from(JSON.stringify(errorBody(status, message)));
  const headers = { ...base, ...extra, 'content-type': 'application/json', 'content-length': String(body.length) };
  return { status, headers, body: head ? null : body };
}

/** The answer to a request for a file of the build, given the security headers every answer carries. */
export function answerFile(request: FileRequest, files: ReadonlyMap<string, StaticFile>, base: Record<string, string>): FileAnswer {
  const { method, headers: h } = request;
  const head = method === 'HEAD';
  if (method !== 'GET' && !head) return errorAnswer(405, 'Method not allowed', false, base, { allow: 'GET, HEAD' });
  if (leavesTheBuild(request.target, request.pathname)) return errorAnswer(400, 'The path leaves the app', head, base);
  const { file, notFound } = lookup(files, request.pathname);
  // The one error body of the API, here too: GET /assets/ui-config.json is an operation of the
  // contract, whose 404 is the Error JSON (a build without that file answers it).
  if (!file) return errorAnswer(404, `No file at '${request.pathname}'`, head, base);

  const shared: Record<string, string> = { ...base, 'cache-control': file.cacheControl, vary: 'Accept-Encoding' };
  if (file.type.startsWith('text/html') && !/(?:^|;\s*)XSRF-TOKEN=/.test(h.cookie ?? '')) {
    shared['set-cookie'] = `XSRF-TOKEN=${randomBytes(18).toString('base64url')}; Path=/; SameSite=Strict`;
  }
  const coding = chooseCoding(file, h['accept-encoding']);

  // RFC 9110 §13.2.2: If-Modified-Since only counts when there is no If-None-Match.
  const inm = h['if-none-match'];
  const ims = h['if-modified-since'] === undefined ? Number.NaN : Date.parse(h['if-modified-since']);
  // A page not found is answered whole each time: no validator makes a 404 into a 304.
  const fresh = !notFound && (inm !== undefined ? noneMatch(inm, tagOf(file, coding)) : ims >= Date.parse(file.lastModified));
  if (fresh) return { status: 304, headers: { ...shared, etag: tagOf(file, coding) }, body: null };

  const described = { ...shared, 'content-type': file.type, 'last-modified': file.lastModified, 'accept-ranges': 'bytes' };
  // Ranges count bytes of the identity body: a range answer is never compressed. HEAD has no
  // range semantics (RFC 9110 §14.2), so it describes the whole body like GET without Range.
  const range =
    !head && !notFound && h.range !== undefined && ifRangeHolds(h['if-range'], file) ? parseRange(h.range, file.body.length) : null;
  if (range === 'unsatisfiable') {
    return errorAnswer(416, 'The range lies outside the file', false, base, {
      vary: 'Accept-Encoding',
      'content-range': `bytes */${file.body.length}`,
    });
  }
  if (range) {
    const body = file.body.subarray(range.start, range.end + 1);
    return {
      status: 206,
      headers: {
        ...described,
        etag: file.etag,
        'content-range': `bytes ${range.start}-${range.end}/${file.body.length}`,
        'content-length': String(body.length),
      },
      body,
    };
  }
  const body = coding ? file[coding]! : file.body;
  const answer: Record<string, string> = { ...described, etag: tagOf(file, coding), 'content-length': String(body.length) };
  if (coding) answer['content-encoding'] = coding;
  return { status: notFound ? 404 : 200, headers: answer, body: head ? null : body };
}

/** Writes answerFile's answer; the server hands every non-API request here. */
export function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  files: ReadonlyMap<string, StaticFile>,
  base: Record<string, string>,
): void {
  // Stryker disable next-line StringLiteral: a request the HTTP server hands over always has its method and URL
  const answer = answerFile({ method: req.method ?? 'GET', target: req.url ?? '/', pathname, headers: req.headers }, files, base);
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}
