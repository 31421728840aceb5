// @vitest-environment node
/**
 * verify judges any document from the document alone: its code names none of the operations, paths
 * or fields of Circle's openapi.yaml. What Circle's API alone does (one profile per member, the
 * destructive command, sequential ids, the list order) is stated in openapi.yaml with `x-`
 * keywords and read from there.
 *
 * Left out of the scan, each for its reason: verify/mock.ts starts Circle's embedded mock (the
 * target when no --base-url is given); verify/faults/ and verify/peers/ are this repository's proof
 * of verify against its own mock; verify/corpus/ holds other servers' documents; and the tests.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isRecord } from '../openapi-kit/index.ts';
import { loadSpec } from '../openapi-kit/node.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VERIFY = join(ROOT, 'verify');
const LEFT_OUT = ['verify/mock.ts', 'verify/faults/', 'verify/peers/', 'verify/corpus/'];

/** verify's own source files, as scanned. */
function sources(dir = VERIFY): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const rel = relative(ROOT, path);
    if (LEFT_OUT.some((l) => rel === l || `${rel}/`.startsWith(l))) return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/**
 * Words any API may use, and verify in its own sense (fast-check's `commands`, OAuth's `scope`, a
 * URL's `username`): naming them is no knowledge of Circle's.
 */
const GENERIC = new Set([
  'id',
  'name',
  'code',
  'title',
  'body',
  'type',
  'status',
  'message',
  'error',
  'read',
  'keys',
  'auth',
  'email',
  'createdAt',
  'updatedAt',
  'commands',
  'scope',
  'username',
  // HTTP's own word (Accept-Language, Content-Language), which verify's negotiation checks use.
  'language',
]);

/** Circle's operationIds, path templates and the path segments and fields peculiar to it. */
function circleNames(): string[] {
  const doc = loadSpec() as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
  const names = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    names.add(path);
    for (const segment of path.split('/')) if (segment.length > 3 && !segment.startsWith('{') && !GENERIC.has(segment)) names.add(segment);
    for (const op of Object.values(item)) if (isRecord(op) && typeof op.operationId === 'string') names.add(op.operationId);
  }
  const fields = (schema: unknown): void => {
    if (!isRecord(schema)) return;
    if (isRecord(schema.properties))
      for (const [field, sub] of Object.entries(schema.properties)) {
        if (!GENERIC.has(field)) names.add(field);
        fields(sub);
      }
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(schema[key])) for (const part of schema[key]) fields(part);
  };
  for (const schema of Object.values(doc.components.schemas)) fields(schema);
  return [...names];
}

describe("verify's code knows nothing of Circle's API", () => {
  const names = circleNames();

  it('the scan has something to look for, and finds it where it is meant to (the embedded mock)', () => {
    expect(names).toEqual(
      expect.arrayContaining(['getMyProfile', 'createProfile', '/user/profile', 'myprofile', 'displayName', 'interests', 'avatar']),
    );
    expect(sources().length).toBeGreaterThan(15);
    const mock = readFileSync(join(VERIFY, 'mock.ts'), 'utf8');
    expect(names.some((n) => new RegExp(`\\b${n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\b`).test(mock))).toBe(true);
  });

  it.each(sources().map((file) => [relative(ROOT, file), file]))('%s names no operation, path or field of openapi.yaml', (_, file) => {
    const text = readFileSync(file, 'utf8');
    const found = names.filter((n) => new RegExp(`(?<![\\w-])${n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\w-])`).test(text));
    expect(found).toEqual([]);
  });
});
