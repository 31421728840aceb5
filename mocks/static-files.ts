import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** One file of the build, held in memory with its compressed forms. */
export interface StaticFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  type: string;
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

/** Hashed file names never change content: cache them for a year. Everything else revalidates. */
function cacheControlFor(path: string): string {
  if (/^\/assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(path)) return 'public, max-age=31536000, immutable';
  return 'no-cache';
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

/** Reads a build folder once, compressing each text file with brotli and gzip ahead of any request. */
export function loadStaticFiles(dir: string): Map<string, StaticFile> {
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
    if (COMPRESSIBLE.has(ext) && body.length > 512) {
      file.br = brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
      file.gzip = gzipSync(body, { level: 9 });
    }
    files.set(path, file);
  }
  return files;
}
