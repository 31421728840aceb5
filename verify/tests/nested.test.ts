// @vitest-environment node
/**
 * Collections under a record, inferred from the paths alone (no links): on a small API of its own
 * (owners, and each owner's pets), verify passes the server that keeps each pet under its owner,
 * and fails each planted fault on the one operation it breaks, and on no other.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiSpec } from '../../openapi-kit/index.ts';
import { loadSpec } from '../../openapi-kit/node.ts';
import { EXIT, main } from '../cli.ts';
import { nestedCollections } from '../nested-collections.ts';
import type { RunResults } from '../results.ts';

const ID = { type: 'string', pattern: '^[A-Za-z0-9-]{1,20}$' };
const record = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { id: ID, name: { type: 'string', maxLength: 40 }, tag: { type: 'string', maxLength: 40 } },
};
const json = (schema: unknown) => ({ 'application/json': { schema } });
const answer = (description: string, schema?: unknown, headers?: unknown) => ({
  description,
  ...(schema ? { content: json(schema) } : {}),
  ...(headers ? { headers } : {}),
});
const param = (name: string) => ({ name, in: 'path', required: true, schema: ID });
const refused = { '400': answer('bad request'), '404': answer('no such record') };
const doc = {
  openapi: '3.1.0',
  info: { title: 'owners and their pets', version: '1' },
  paths: {
    '/owners': {
      get: { operationId: 'listOwners', responses: { '200': answer('the owners', { type: 'array', items: record }) } },
      post: {
        operationId: 'createOwner',
        requestBody: { required: true, content: json(record) },
        responses: { '201': answer('made', record), '400': answer('bad request'), '409': answer('the id exists') },
      },
    },
    '/owners/{ownerId}': {
      parameters: [param('ownerId')],
      get: { operationId: 'getOwner', responses: { '200': answer('the owner', record), ...refused } },
      delete: { operationId: 'deleteOwner', responses: { '204': answer('deleted, with their pets'), ...refused } },
    },
    '/owners/{ownerId}/pets': {
      parameters: [param('ownerId')],
      get: { operationId: 'listPets', responses: { '200': answer("the owner's pets", { type: 'array', items: record }), ...refused } },
      post: {
        operationId: 'createPet',
        requestBody: { required: true, content: json(record) },
        responses: {
          '201': answer('made', record, { Location: { required: true, schema: { type: 'string', format: 'uri-reference' } } }),
          ...refused,
          '409': answer('the id exists'),
        },
      },
    },
    '/owners/{ownerId}/pets/{petId}': {
      parameters: [param('ownerId'), param('petId')],
      get: { operationId: 'getPet', responses: { '200': answer('the pet', record), ...refused } },
      put: {
        operationId: 'replacePet',
        requestBody: { required: true, content: json(record) },
        responses: { '200': answer('replaced', record), ...refused },
      },
      delete: { operationId: 'deletePet', responses: { '204': answer('deleted'), ...refused } },
    },
  },
};

type Row = Record<string, unknown>;
type Fault = 'readable-under-another-owner' | 'list-ignores-owner' | 'delete-takes-owner' | 'location-under-another-owner';

/** Whether a body is a record the document accepts: an object of `name`, and `id` and `tag` optional, all strings. */
function valid(body: unknown): body is Row {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const row = body as Row;
  const text = (v: unknown) => typeof v === 'string' && [...v].length <= 40;
  return (
    Object.keys(row).every((k) => ['id', 'name', 'tag'].includes(k)) &&
    text(row.name) &&
    (row.tag === undefined || text(row.tag)) &&
    (row.id === undefined || (typeof row.id === 'string' && /^[A-Za-z0-9-]{1,20}$/.test(row.id)))
  );
}

/** Owners and their pets, each pet under its owner; `fault` plants one bug. */
function petServer(fault?: Fault) {
  const owners = new Map<string, Row>([['1', { id: '1', name: 'Ada' }]]);
  const pets = new Map<string, Map<string, Row>>([['1', new Map([['1', { id: '1', name: 'Rex', tag: 'dog' }]])]]);
  let next = 100;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, body === undefined ? headers : { ...headers, 'content-type': 'application/json' })
          .end(body === undefined ? '' : JSON.stringify(body));
      const readBody = (): Row | null => {
        const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== 'application/json') return null;
        try {
          const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
          return valid(parsed) ? parsed : null;
        } catch {
          return null;
        }
      };
      const segments = new URL(req.url ?? '/', 'http://x').pathname.split('/').slice(1);
      let ids: string[];
      try {
        ids = segments.filter((_, i) => i % 2 === 1).map(decodeURIComponent);
      } catch {
        return send(400);
      }
      if (segments[0] !== 'owners' || (segments.length > 2 && segments[2] !== 'pets') || segments.length > 4) return send(404);
      if (ids.some((id) => !/^[A-Za-z0-9-]{1,20}$/.test(id))) return send(400);
      const [ownerId, petId] = ids;
      const method = req.method ?? 'GET';
      const make = (store: Map<string, Row>, at: string) => {
        const body = readBody();
        if (!body) return send(400);
        const id = typeof body.id === 'string' ? body.id : String(next++);
        if (store.has(id)) return send(409);
        const row = { ...body, id };
        store.set(id, row);
        return send(201, row, { location: `${at}/${id}` });
      };
      if (ownerId === undefined) {
        if (method === 'GET') return send(200, [...owners.values()]);
        if (method === 'POST') {
          make(owners, '/owners');
          for (const id of owners.keys()) if (!pets.has(id)) pets.set(id, new Map());
          return;
        }
        return send(405);
      }
      const owner = owners.get(ownerId);
      if (segments.length === 2) {
        if (!owner) return send(404);
        if (method === 'GET') return send(200, owner);
        if (method === 'DELETE') {
          owners.delete(ownerId);
          pets.delete(ownerId);
          return send(204);
        }
        return send(405);
      }
      if (!owner) return send(404);
      const mine = pets.get(ownerId)!;
      if (petId === undefined) {
        if (method === 'GET')
          return send(200, fault === 'list-ignores-owner' ? [...pets.values()].flatMap((m) => [...m.values()]) : [...mine.values()]);
        if (method === 'POST') {
          const other = [...owners.keys()].find((id) => id !== ownerId) ?? 'x';
          return make(mine, `/owners/${fault === 'location-under-another-owner' ? other : ownerId}/pets`);
        }
        return send(405);
      }
      const pet =
        fault === 'readable-under-another-owner' && method === 'GET'
          ? [...pets.values()].find((m) => m.has(petId))?.get(petId)
          : mine.get(petId);
      if (method === 'GET') return pet ? send(200, pet) : send(404);
      if (method === 'PUT') {
        const body = readBody();
        if (!body) return send(400);
        if (!pet) return send(404);
        const row = { ...body, id: petId };
        mine.set(petId, row);
        return send(200, row);
      }
      if (method === 'DELETE') {
        if (!pet) return send(404);
        mine.delete(petId);
        if (fault === 'delete-takes-owner') {
          owners.delete(ownerId);
          pets.delete(ownerId);
        }
        return send(204);
      }
      send(405);
    });
  });
  return server;
}

let dir: string;
let spec: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verify-nested-'));
  spec = join(dir, 'pets.json');
  writeFileSync(spec, JSON.stringify(doc));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs verify against the pet server with `fault` planted: its exit code, output and each operation's failures. */
async function verifyPets(
  fault?: Fault,
  extra: string[] = [],
): Promise<{ code: number; out: string; failing: Record<string, string[]>; run: RunResults }> {
  const server = petServer(fault);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const json = join(dir, `report-${fault ?? 'none'}${extra.join('')}.json`);
  let out = '';
  try {
    const code = await main(
      [
        '--spec',
        spec,
        '--base-url',
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        '--seed',
        '1',
        '--runs',
        '5',
        '--quiet',
        '--json',
        json,
        ...extra,
      ],
      { out: (t) => (out += t), err: (t) => (out += t), progress: null },
    );
    const run = JSON.parse(readFileSync(json, 'utf8')) as RunResults;
    const failing = Object.fromEntries(
      run.operations
        .map((o) => [o.operationId, Object.values(o.checks).flatMap((c) => c.failures.map((f) => f.title))] as const)
        .filter(([, titles]) => titles.length > 0),
    );
    return { code, out, failing, run };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('collections under a record', () => {
  it('are inferred from the paths: the pets under an owner, the owner their parent', () => {
    const nested = nestedCollections(new OpenApiSpec(doc));
    expect(nested.map((n) => [n.collection.path, n.collection.itemPath, n.parentPath, n.parentParam, n.parent.path])).toEqual([
      ['/owners/{ownerId}/pets', '/owners/{ownerId}/pets/{petId}', '/owners/{ownerId}', 'ownerId', '/owners'],
    ]);
  });

  it('are found under a collection under a record too, and left to the links where a link says the parent is another', () => {
    const pets = doc.paths['/owners/{ownerId}/pets'];
    const pet = doc.paths['/owners/{ownerId}/pets/{petId}'];
    const toys = {
      ...doc.paths,
      '/owners/{ownerId}/pets/{petId}/toys': {
        parameters: [param('ownerId'), param('petId')],
        get: { ...pets.get, operationId: 'listToys' },
        post: { ...pets.post, operationId: 'createToy' },
      },
      '/owners/{ownerId}/pets/{petId}/toys/{toyId}': {
        parameters: [param('ownerId'), param('petId'), param('toyId')],
        get: { ...pet.get, operationId: 'getToy' },
      },
    };
    const nested = nestedCollections(new OpenApiSpec({ ...doc, paths: toys }));
    expect(nested.map((n) => [n.collection.path, n.parentParam, n.parent.path])).toEqual([
      ['/owners/{ownerId}/pets', 'ownerId', '/owners'],
      ['/owners/{ownerId}/pets/{petId}/toys', 'petId', '/owners/{ownerId}/pets'],
    ]);
    // A link that gives the pets' create its owner from another answer than the owners' create.
    const linked = structuredClone(doc) as unknown as { paths: Record<string, Record<string, { responses: Record<string, object> }>> };
    linked.paths['/owners']!.get!.responses['200'] = {
      ...linked.paths['/owners']!.get!.responses['200'],
      links: { AddPet: { operationId: 'createPet', parameters: { ownerId: '$response.body#/0/id' } } },
    };
    expect(nestedCollections(new OpenApiSpec(linked))).toEqual([]);
    // The same link from the owners' create agrees with the paths.
    const agreeing = structuredClone(doc) as unknown as typeof linked;
    agreeing.paths['/owners']!.post!.responses['201'] = {
      ...agreeing.paths['/owners']!.post!.responses['201'],
      links: { AddPet: { operationId: 'createPet', parameters: { ownerId: '$response.body#/id' } } },
    };
    expect(nestedCollections(new OpenApiSpec(agreeing)).map((n) => n.collection.path)).toEqual(['/owners/{ownerId}/pets']);
  });

  it("are none in the repository's own document, whose paths under a record are no collections", () => {
    const own = loadSpec();
    expect(Object.keys(own.paths).filter((p) => /\}\/[^{}/]+$/.test(p)).length).toBeGreaterThan(0);
    expect(nestedCollections(new OpenApiSpec(own))).toEqual([]);
  });

  it('pass a server that keeps each pet under its owner, with a stateful walk of the pets', { timeout: 60_000 }, async () => {
    const { code, out, run } = await verifyPets();
    expect(out).not.toMatch(/FAIL/);
    expect(code, out).toBe(EXIT.conformant);
    for (const o of run.operations.filter((o) => o.path.startsWith('/owners/{ownerId}/pets')))
      expect([o.operationId, o.checks.stateful.status, o.checks.stateful.requests > 0]).toEqual([o.operationId, 'pass', true]);
  });

  it("send the pets' single requests to a real owner, one the owners' list answers when nothing may be created", {
    timeout: 60_000,
  }, async () => {
    // Read-only: only the requests of single exchanges, each to the owner listed and their pet listed.
    const { code, out, run } = await verifyPets(undefined, ['--read-only']);
    expect(code, out).toBe(EXIT.conformant);
    const seen = Object.fromEntries(run.operations.map((o) => [o.operationId, o.seen['200'] ?? 0]));
    expect(seen.listPets).toBeGreaterThan(0);
    expect(seen.getPet).toBeGreaterThan(0);
  });

  it.each([
    ['readable-under-another-owner', 'getPet', /is readable under ownerId/],
    ['list-ignores-owner', 'listPets', /the list of ownerId '\w+' holds record/],
    ['delete-takes-owner', 'deletePet', /the DELETE took its parent along/],
    ['location-under-another-owner', 'createPet', /Location .* does not name the record created \(\/owners\/\w+\/pets\/\w+\)/],
  ] as const)('fail %s on %s and on no other operation', { timeout: 60_000 }, async (fault, op, title) => {
    const { code, failing, out } = await verifyPets(fault);
    expect(code, out).toBe(EXIT.notConformant);
    expect(Object.keys(failing), out).toEqual([op]);
    expect(
      failing[op]!.some((t) => title.test(t)),
      failing[op]!.join('\n'),
    ).toBe(true);
  });
});
