// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createContract } from '../contract.ts';
import { createDatabase } from '../db.ts';
import type { OpenApiDocument } from '../../openapi-kit/index.ts';
import { loadSpecCached } from '../../openapi-kit/node.ts';
import accounts from '../data/accounts.json' with { type: 'json' };
import notifications from '../data/notifications.json' with { type: 'json' };
import symbols from '../data/symbols.json' with { type: 'json' };
import { restCollection } from './collections.ts';
import type { MockContext } from './context.ts';
import { error, serverPerTest } from '../test/server.test-support.ts';
import { bearerOf, testAuthenticate } from '../../testkit/index.ts';

/** ada, the admin (as the embedded provider has her). */
const ADMIN = bearerOf('ada');

const server = serverPerTest({ authenticate: testAuthenticate });
/** A request to the API as the admin, who may write every collection (the role checks have tests of their own). */
const api = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  server.api(path, { ...init, headers: { ...ADMIN, ...Object.fromEntries(new Headers(init.headers)) } });

const newNotification = (title: string, createdAt: string) => ({ title, body: '', level: 'info' as const, read: false, createdAt });
const subscriptionInput = { endpoint: 'https://push.example/abc', keys: { p256dh: 'key', auth: 'secret' } };

describe('GET /{collection}', () => {
  it('lists every record as stored, as JSON', async () => {
    const answer = await api('/accounts');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.body).toEqual(accounts);
  });

  it('keeps only the records whose fields equal every filter given', async () => {
    expect((await api('/accounts?currency=EUR')).body).toEqual([accounts[0], accounts[1]]);
    expect((await api('/accounts?currency=EUR&name=Workshop%20fund')).body).toEqual([accounts[1]]);
    expect((await api('/accounts?currency=USD')).body).toEqual([accounts[2]]);
    expect((await api('/accounts?currency=GBP')).body).toEqual([]);
    expect((await api('/symbols?code=AAPL')).body).toEqual([symbols[1]]);
  });

  it('compares a filter with the text of a field that is no string', async () => {
    expect((await api('/accounts?balance=430')).body).toEqual([accounts[1]]);
    expect((await api('/notifications?read=true')).body).toEqual([notifications[2]]);
  });

  it('matches no record with a filter on a field no record has, whatever its value', async () => {
    expect((await api('/accounts?colour=undefined')).body).toEqual([]);
    expect((await api('/accounts?colour=red')).body).toEqual([]);
  });

  it('refuses with 400 a filter that breaks its schema', async () => {
    const answer = await api('/accounts?currency=eur');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(error(400, 'Bad Request', `query parameter 'currency' must match pattern "^[A-Z]{3}$"`));
  });

  it('lists notifications newest first, whatever order they were stored in', async () => {
    const created = await api('/notifications', { method: 'POST', json: newNotification('Oldest', '2026-01-01T00:00:00Z') });
    expect(created.status).toBe(201);
    const list = (await api('/notifications')).body as { id: string }[];
    expect(list.map((n) => n.id)).toEqual(['3', '2', '1', '4']);
    expect(list[0]).toEqual(notifications[2]);
  });
});

describe('the order of a list, read from its x-sort', () => {
  const tableWithSort = async (sort: string | undefined) => {
    const doc = structuredClone(loadSpecCached()) as OpenApiDocument & { paths: Record<string, Record<string, Record<string, unknown>>> };
    const list = doc.paths['/notifications']!.get!;
    if (sort === undefined) delete list['x-sort'];
    else list['x-sort'] = sort;
    const contract = createContract(doc);
    return restCollection({ contract, db: await createDatabase(contract), basePath: '/api' } as MockContext, 'notifications');
  };
  const ids = (table: Awaited<ReturnType<typeof tableWithSort>>) =>
    table.list(new Request('http://localhost/api/notifications')).body.map((n) => n.id);

  it('follows the document: ascending without the -, as stored without an x-sort', async () => {
    const ascending = await tableWithSort('createdAt');
    await ascending.create(newNotification('Oldest', '2026-01-01T00:00:00Z'));
    expect(ids(ascending)).toEqual(['4', '1', '2', '3']);
    const unsorted = await tableWithSort(undefined);
    await unsorted.create(newNotification('Oldest', '2026-01-01T00:00:00Z'));
    expect(ids(unsorted)).toEqual(['1', '2', '3', '4']);
  });

  it('compares date-times as instants: an earlier time with a later-sorting offset comes after', async () => {
    const newestFirst = await tableWithSort('-createdAt');
    const latest = notifications.map((n) => Date.parse(n.createdAt)).reduce((a, b) => Math.max(a, b));
    // One hour after the latest seeded one, written at -05:00: its text sorts before the latest's.
    const at = new Date(latest + 3_600_000 - 5 * 3_600_000).toISOString().replace('.000Z', '-05:00');
    await newestFirst.create(newNotification('Later', at));
    expect(ids(newestFirst)[0]).toBe('4');
  });
});

describe('GET /{collection}/{id}', () => {
  it('answers the record', async () => {
    const answer = await api('/symbols/2');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(symbols[1]);
  });

  it('answers 404 naming the record and the collection when there is none', async () => {
    const answer = await api('/symbols/9');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.body).toEqual(error(404, 'Not Found', "Record '9' not found in collection 'symbols'"));
  });
});

describe('POST /{collection}', () => {
  it('stores the record under the next numeric id and answers it with 201 and its Location', async () => {
    expect((await api('/symbols/2', { method: 'DELETE' })).status).toBe(204);
    const answer = await api('/symbols', { method: 'POST', json: { code: 'IBM', entity: 'IBM' } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBe('/api/symbols/4');
    expect(answer.body).toEqual({ id: '4', code: 'IBM', entity: 'IBM' });
    expect((await api('/symbols/4')).body).toEqual({ id: '4', code: 'IBM', entity: 'IBM' });
  });

  it('keeps the id the body gives, and puts it %-encoded in the Location', async () => {
    const answer = await api('/notifications', { method: 'POST', json: { id: 'a_b-C', ...newNotification('Hi', '2026-01-01T00:00:00Z') } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBe('/api/notifications/a_b-C');
    expect(answer.body).toEqual({ id: 'a_b-C', ...newNotification('Hi', '2026-01-01T00:00:00Z') });
  });

  it('counts only the ids made of digits when it makes the next one', async () => {
    const post = (input: object) => api('/notifications', { method: 'POST', json: newNotification('N', '2026-01-01T00:00:00Z'), ...input });
    for (const id of ['x70', '80x', 'y']) {
      expect((await api('/notifications', { method: 'POST', json: { id, ...newNotification('N', '2026-01-01T00:00:00Z') } })).status).toBe(
        201,
      );
    }
    const after3 = await post({});
    expect([after3.status, (after3.body as { id: string }).id]).toEqual([201, '4']);
    expect(
      (await api('/notifications', { method: 'POST', json: { id: '12', ...newNotification('N', '2026-01-01T00:00:00Z') } })).status,
    ).toBe(201);
    const after12 = await post({});
    expect([after12.status, (after12.body as { id: string }).id, after12.headers.get('location')]).toEqual([
      201,
      '13',
      '/api/notifications/13',
    ]);
  });

  it('starts at 1 in an empty collection', async () => {
    const answer = await api('/subscription', { method: 'POST', json: subscriptionInput });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: '1', ...subscriptionInput });
  });

  it('answers 422 when no id is left to give, and stores nothing', async () => {
    const last = String(Number.MAX_SAFE_INTEGER);
    expect(
      (await api('/notifications', { method: 'POST', json: { id: last, ...newNotification('N', '2026-01-01T00:00:00Z') } })).status,
    ).toBe(201);
    const answer = await api('/notifications', { method: 'POST', json: newNotification('M', '2026-01-01T00:00:00Z') });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(
      error(422, 'Unprocessable Entity', "No id can be generated for collection 'notifications': send one in the body"),
    );
    expect(((await api('/notifications')).body as unknown[]).length).toBe(4);
  });

  it('answers 409 when the id is taken, and keeps the record', async () => {
    expect((await api('/symbols/3', { method: 'DELETE' })).status).toBe(204);
    const answer = await api('/symbols', { method: 'POST', json: { id: '1', code: 'IBM', entity: 'IBM' } });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual(error(409, 'Conflict', "Record '1' already exists in collection 'symbols'"));
    expect((await api('/symbols/1')).body).toEqual(symbols[0]);
  });

  it('answers 422 once the collection holds its x-max-records, with or without an id', async () => {
    const full = error(422, 'Unprocessable Entity', "Collection 'accounts' holds at most 3 records");
    const noId = await api('/accounts', { method: 'POST', json: { name: 'More', currency: 'EUR', balance: 1 } });
    expect([noId.status, noId.body]).toEqual([422, full]);
    const withId = await api('/accounts', { method: 'POST', json: { id: '7', name: 'More', currency: 'EUR', balance: 1 } });
    expect([withId.status, withId.body]).toEqual([422, full]);
    expect((await api('/accounts/7')).status).toBe(404);
    expect((await api('/accounts/4')).status).toBe(404);
  });
});

describe('a record body', () => {
  it('is refused with 400 naming the field that breaks the schema, and nothing is stored', async () => {
    const answer = await api('/notifications', { method: 'POST', json: { ...newNotification('', '2026-01-01T00:00:00Z') } });
    expect([answer.status, answer.body]).toEqual([400, error(400, 'Bad Request', 'body.title must NOT have fewer than 1 characters')]);
    expect(((await api('/notifications')).body as unknown[]).length).toBe(3);
  });

  it("is refused with 413 past its operation's x-max-body-bytes, though the server reads larger bodies", async () => {
    const big = JSON.stringify({ ...newNotification('N', '2026-01-01T00:00:00Z'), body: 'x'.repeat(70_000) });
    const refused = await api('/notifications', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect([refused.status, refused.body]).toEqual([413, error(413, 'Payload Too Large', 'A JSON body must be at most 64 KB')]);
  });
});

describe('PUT /{collection}/{id}', () => {
  it('replaces the record: the fields the body leaves out are gone', async () => {
    const created = await api('/subscription', { method: 'POST', json: { ...subscriptionInput, expirationTime: 1700000000000 } });
    expect(created.body).toEqual({ id: '1', ...subscriptionInput, expirationTime: 1700000000000 });
    const replaced = { endpoint: 'https://push.example/def', keys: { p256dh: 'k2', auth: 's2' } };
    const answer = await api('/subscription/1', { method: 'PUT', json: replaced });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: '1', ...replaced });
    expect((await api('/subscription/1')).body).toEqual({ id: '1', ...replaced });
  });

  it('accepts the id in the body when it is the URL one', async () => {
    const input = { id: '2', name: 'Renamed', currency: 'CHF', balance: -5 };
    const answer = await api('/accounts/2', { method: 'PUT', json: input });
    expect([answer.status, answer.body]).toEqual([200, input]);
    expect((await api('/accounts')).body).toEqual([accounts[0], input, accounts[2]]);
  });

  it('keeps the fields in their stored order, the id first', async () => {
    // A client that shows a record's JSON as it comes sees the same order before and after an edit.
    const answer = await api('/accounts/3', { method: 'PUT', json: { name: 'Trips', currency: 'USD', balance: 1 } });
    expect(Object.keys(answer.body as object)).toEqual(['id', 'name', 'currency', 'balance']);
    expect(Object.keys((await api('/accounts/3')).body as object)).toEqual(['id', 'name', 'currency', 'balance']);
  });

  it('answers 400 when the body names another id, and changes nothing', async () => {
    const answer = await api('/accounts/2', { method: 'PUT', json: { id: '3', name: 'X', currency: 'EUR', balance: 0 } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(error(400, 'Bad Request', "Id in the URL ('2') does not match the id in the body ('3')"));
    expect((await api('/accounts')).body).toEqual(accounts);
  });

  it('answers 404 when there is no such record, and creates none', async () => {
    const answer = await api('/accounts/9', { method: 'PUT', json: { name: 'X', currency: 'EUR', balance: 0 } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(error(404, 'Not Found', "Record '9' not found in collection 'accounts'"));
    const withId = await api('/accounts/9', { method: 'PUT', json: { id: '9', name: 'X', currency: 'EUR', balance: 0 } });
    expect([withId.status, withId.body]).toEqual([404, error(404, 'Not Found', "Record '9' not found in collection 'accounts'")]);
    expect((await api('/accounts')).body).toEqual(accounts);
  });
});

describe('DELETE /{collection}/{id}', () => {
  it('removes the record and answers 204 with no body', async () => {
    const answer = await api('/accounts/1', { method: 'DELETE' });
    expect([answer.status, answer.body]).toEqual([204, null]);
    expect((await api('/accounts')).body).toEqual([accounts[1], accounts[2]]);
  });

  it('answers 404 when there is no such record', async () => {
    expect((await api('/accounts/1', { method: 'DELETE' })).status).toBe(204);
    const answer = await api('/accounts/1', { method: 'DELETE' });
    expect([answer.status, answer.body]).toEqual([404, error(404, 'Not Found', "Record '1' not found in collection 'accounts'")]);
  });
});

describe('each collection', () => {
  const cases: { name: string; input: Record<string, unknown>; changed: Record<string, unknown>; room?: string }[] = [
    {
      name: 'accounts',
      input: { name: 'New', currency: 'EUR', balance: 1 },
      changed: { name: 'Old', currency: 'USD', balance: 2 },
      room: '1',
    },
    {
      name: 'notifications',
      input: newNotification('New', '2026-01-01T00:00:00Z'),
      changed: newNotification('Changed', '2026-02-01T00:00:00Z'),
    },
    { name: 'subscription', input: subscriptionInput, changed: { endpoint: 'https://push.example/xyz', keys: { p256dh: 'k', auth: 'a' } } },
    { name: 'symbols', input: { code: 'IBM', entity: 'IBM' }, changed: { code: 'ORCL', entity: 'Oracle' }, room: '3' },
  ];

  it.each(cases)('$name is listed, created, read, replaced and deleted through its own routes', async ({ name, input, changed, room }) => {
    if (room) expect((await api(`/${name}/${room}`, { method: 'DELETE' })).status).toBe(204);
    const created = await api(`/${name}`, { method: 'POST', json: input });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    const record = { id, ...input };
    expect((await api(`/${name}`)).body).toContainEqual(record);
    expect((await api(`/${name}/${id}`)).body).toEqual(record);
    const replaced = await api(`/${name}/${id}`, { method: 'PUT', json: changed });
    expect([replaced.status, replaced.body]).toEqual([200, { id, ...changed }]);
    expect((await api(`/${name}/${id}`)).body).toEqual({ id, ...changed });
    expect((await api(`/${name}/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/${name}/${id}`)).status).toBe(404);
    expect((await api(`/${name}`)).body).not.toContainEqual({ id, ...changed });
  });

  it('has no record limit when the document describes it as no collection', async () => {
    // Another document (a trimmed copy of openapi.yaml here) may leave out a collection the database holds.
    const doc = structuredClone(loadSpecCached()) as OpenApiDocument & { paths: Record<string, Record<string, unknown>> };
    delete doc.paths['/accounts']!.post;
    const contract = createContract(doc);
    expect(contract.spec.collections.map((c) => c.name)).not.toContain('accounts');
    const mock = { contract, db: await createDatabase(createContract(loadSpecCached())), basePath: '/api' } as MockContext;
    const table = restCollection(mock, 'accounts');
    for (const id of ['4', '5']) expect((await table.create({ name: 'More', currency: 'EUR', balance: 1 })).body.id).toBe(id);
  });
});

describe('POST /commands/{name}', () => {
  it('reset restores the seed data and answers 204', async () => {
    await api('/symbols/1', { method: 'DELETE' });
    await api('/accounts/2', { method: 'PUT', json: { name: 'X', currency: 'EUR', balance: 0 } });
    const answer = await api('/commands/reset', { method: 'POST' });
    expect([answer.status, answer.body]).toEqual([204, null]);
    expect((await api('/symbols')).body).toEqual(symbols);
    expect((await api('/accounts')).body).toEqual(accounts);
  });

  it('refuses a name longer than its schema allows with 400, before looking it up', async () => {
    const answer = await api(`/commands/${'x'.repeat(65)}`, { method: 'POST' });
    expect(answer.status).toBe(400);
    expect((answer.body as { message: string }).message).toMatch(/^path parameter 'name' must NOT have more than 64 characters/);
    expect((await api(`/commands/${'x'.repeat(64)}`, { method: 'POST' })).status).toBe(500);
  });

  it('answers any other command, even a name every object has, with 500 naming it', async () => {
    for (const name of ['explode', 'toString', 'constructor']) {
      const answer = await api(`/commands/${name}`, { method: 'POST' });
      expect([answer.status, answer.body]).toEqual([500, error(500, 'Internal Server Error', `Unknown command '${name}'`)]);
    }
  });
});
