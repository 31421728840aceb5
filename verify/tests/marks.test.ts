// @vitest-environment node
/**
 * A member's marks on records they did not get from verify come back as they were: on a small API
 * of its own (things a member marks seen, one by one or all at once), marks changed after the
 * snapshot are put back both ways, and a record verify cannot put back is named in the notes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenApiSpec } from '../../openapi-kit/index.ts';
import { MarkKeeper, markPairs } from '../marks.ts';
import { Results } from '../results.ts';
import { Session } from '../session.ts';
import { Target } from '../target.ts';

const thing = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, seen: { type: 'boolean' } } };
const answer = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const doc = {
  openapi: '3.1.0',
  info: { title: 'things', version: '1' },
  paths: {
    '/things': {
      get: { operationId: 'listThings', responses: { '200': answer('the things', { type: 'array', items: thing }) } },
      post: {
        operationId: 'createThing',
        requestBody: { content: { 'application/json': { schema: thing } } },
        responses: { '201': answer('made', thing) },
      },
    },
    '/things/seen-all': { post: { operationId: 'seeAll', responses: { '204': { description: 'all seen' } } } },
    '/things/{id}': {
      parameters: [idParam],
      get: { operationId: 'getThing', responses: { '200': answer('the thing', thing), '404': { description: 'none' } } },
    },
    '/things/{id}/seen': {
      parameters: [idParam],
      put: { operationId: 'see', responses: { '204': { description: 'seen' } } },
      delete: { operationId: 'unsee', responses: { '204': { description: 'not seen' } } },
    },
    '/things/{id}/tags/{tag}': {
      parameters: [idParam, { name: 'tag', in: 'path', required: true, schema: { type: 'string' } }],
      put: { operationId: 'tag', responses: { '204': { description: 'tagged' } } },
      delete: { operationId: 'untag', responses: { '204': { description: 'untagged' } } },
    },
  },
};

/** The things and the member's marks; `stuck` ids ignore their marks' requests. */
function thingsServer(stuck: string[] = []) {
  const names: Record<string, string> = { '1': 'one', '2': 'two', '3': 'three' };
  const seen = new Set(['2']);
  const view = (id: string) => ({ id, name: names[id], seen: seen.has(id) });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const json = (status: number, body?: unknown) =>
      res
        .writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' })
        .end(body === undefined ? '' : JSON.stringify(body));
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const mark = /^\/things\/([^/]+)\/seen$/.exec(path);
    if (req.method === 'GET' && path === '/things') return json(200, Object.keys(names).map(view));
    const one = /^\/things\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && one) return names[one[1]!] ? json(200, view(one[1]!)) : json(404);
    if (mark && names[mark[1]!]) {
      if (!stuck.includes(mark[1]!)) req.method === 'PUT' ? seen.add(mark[1]!) : seen.delete(mark[1]!);
      return json(204);
    }
    json(404);
  });
  return { server, seen };
}

describe("a member's marks", () => {
  const closing: Array<() => void> = [];
  afterEach(() => {
    for (const close of closing.splice(0)) close();
  });

  async function keeperOn(server: ReturnType<typeof createServer>) {
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const target = new Target({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    closing.push(() => {
      target.close();
      server.close();
    });
    const spec = new OpenApiSpec(doc);
    const session = new Session(spec, target, new Results(spec), { seed: 1, runs: 1, readOnly: false, ownServer: false });
    return { session, keeper: new MarkKeeper(session) };
  }

  it('are the PUT and DELETE pairs under a record, and no path with another parameter', () => {
    const spec = new OpenApiSpec(doc);
    const pairs = markPairs(spec, spec.collections.find((c) => c.name === 'things')!);
    expect(pairs.map(({ put, remove }) => [put.id, remove.id])).toEqual([['see', 'unsee']]);
  });

  it('come back as they were after a mark put, a mark taken away and every record marked', async () => {
    const { server, seen } = thingsServer();
    const { keeper, session } = await keeperOn(server);
    await keeper.snapshot();
    seen.delete('2');
    for (const id of ['1', '3']) seen.add(id);
    await keeper.restore();
    expect([...seen]).toEqual(['2']);
    expect(session.results.notes).toEqual([]);
  });

  it('that cannot be put back are named in the notes', async () => {
    const { server, seen } = thingsServer(['3']);
    const { keeper, session } = await keeperOn(server);
    await keeper.snapshot();
    seen.add('3');
    await keeper.restore();
    expect(session.results.notes).toEqual([expect.stringMatching(/^could not put back record '3' of things/)]);
  });
});
