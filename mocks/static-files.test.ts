// @vitest-environment node
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
