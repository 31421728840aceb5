// @vitest-environment node
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpec, loadSpecCached, SPEC_PATH } from './spec-file.ts';

const made: string[] = [];
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

/** A copy of openapi.yaml no cache has seen yet: a comment of its own changes its hash. */
const freshSpec = (extra = '') => {
  const dir = mkdtempSync(join(tmpdir(), 'circle-spec-cache-'));
  made.push(dir);
  const text = `${readFileSync(SPEC_PATH, 'utf8')}\n# ${dir}\n${extra}`;
  const path = join(dir, 'openapi.yaml');
  writeFileSync(path, text);
  const cache = join(tmpdir(), `circle-openapi-${createHash('sha256').update(text).digest('hex').slice(0, 24)}.json`);
  made.push(cache);
  return { path, cache };
};

describe('loadSpecCached', () => {
  it('parses a document it has not seen and keeps the result, whole, under the hash of its text', () => {
    const { path, cache } = freshSpec();
    expect(existsSync(cache)).toBe(false);
    const doc = loadSpecCached(path);
    expect(doc).toEqual(loadSpec(path));
    expect(JSON.parse(readFileSync(cache, 'utf8'))).toEqual(doc);
    // The write goes through a temporary file, which is gone once the cache is in place.
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`${cache.split('/').at(-1)}.`))).toEqual([]);
  });

  it('reads the kept result while the text is unchanged', () => {
    const { path, cache } = freshSpec();
    const doc = loadSpecCached(path);
    writeFileSync(cache, JSON.stringify({ ...doc, info: { ...doc.info, title: 'From the cache' } }));
    expect(loadSpecCached(path).info?.title).toBe('From the cache');
  });

  it('keeps nothing of a document JSON would change, and reads it the same every time', () => {
    const { path, cache } = freshSpec('x-unbounded: .inf\n');
    const unbounded = () => (loadSpecCached(path) as unknown as Record<string, unknown>)['x-unbounded'];
    expect(unbounded()).toBe(Number.POSITIVE_INFINITY);
    expect(existsSync(cache)).toBe(false);
    expect(unbounded()).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('loadSpec', () => {
  it('names a file that is no YAML, with the first line of the reason only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'circle-spec-broken-'));
    made.push(dir);
    const path = join(dir, 'openapi.yaml');
    writeFileSync(path, 'openapi: 3.1.0\npaths: [\n');
    const message = (() => {
      try {
        loadSpec(path);
      } catch (error) {
        return (error as Error).message;
      }
      return 'nothing was refused';
    })();
    expect(message).toMatch(new RegExp(`^${path.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid YAML: \\S.{10,}$`));
    expect(message).not.toContain('\n');
  });
});
