/**
 * Mode (b): the generated client → `prism proxy openapi.yaml <node mock>/api --errors` → the Node
 * mock server. Prism validates every request and every answer against the contract and answers a
 * violation itself (422 for a request, 500 for an answer, with a problem body); the recorder also
 * validates each answer with ajv and flags any Prism problem body or sl-violations header.
 *
 * Also here, because they are owned by the backend and checked through the proxy: one test per row
 * of the error catalogue (seed spec section 8) and the client's error strings.
 *
 * It sits at the top of src/, as src/prism-mock.contract.test.ts does: it drives the api's requests
 * and the profile's, a layer above them.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from './api/client';
import { COLLECTION_NAMES, collectionsApi, type CollectionName } from './api/collections';
import { inboxApi } from './api/inbox';
import { ApiError, profileErrorMessage } from './api/errors';
import { profileCalls } from './test/profile-calls.test-support';
import type { TransferEvent } from './api/transport';
import { COLLECTIONS } from '../mock-api/index.ts';
import { authorize, errorBody, recordedClient, startProxiedBackend, type ProxiedBackend } from './test/backend.test-support';
import { makePng } from '../openapi-kit/node.ts';
import { AnswerContract, Recorder } from '../openapi-kit/node.ts';
import { freePort, signInAs, UI_CONFIG } from '../testkit/index.ts';
import { SAMPLE_PROFILE, REPLACEMENT, SAMPLE_INPUT } from '../testkit/index.ts';

const contract = new AnswerContract();
/** Answers that came through Prism: these count for coverage. */
const recorder = new Recorder(contract);
/** Answers straight from the Node server (test set-up only): checked, but not counted. */
const direct = new Recorder(contract);
let backend: ProxiedBackend;
let api: ApiClient;
let root: ApiClient;
let node: ApiClient;
const backendLog: string[] = [];

beforeAll(async () => {
  backend = await startProxiedBackend();
  // ada's token from the server's own provider: Prism's proxy checks that the profile's requests
  // carry one and passes it on, and the server reads the member from it.
  const { authorization } = await signInAs(backend.server.url, 'ada');
  api = authorize(
    recordedClient(backend.proxy.url, recorder, (line) => backendLog.push(line)),
    authorization,
  );
  root = recordedClient(backend.rootProxy.url, recorder);
  node = authorize(recordedClient(`${backend.server.url}/api`, direct), authorization);
});

afterAll(async () => {
  await backend?.stop();
});

beforeEach(async () => {
  const { response } = await api.POST('/commands/{name}', { params: { path: { name: 'reset' } } });
  expect(response.status).toBe(204);
  backendLog.length = 0;
});

afterEach(() => {
  expect(recorder.take(), 'answers through Prism that break the contract').toEqual([]);
  expect(direct.take(), 'answers of the Node server that break the contract').toEqual([]);
});

// The name variable widens the path literal; each literal is a real path of the contract, as in
// src/api/collections.ts. Bodies are typed per collection in SAMPLE_INPUT/REPLACEMENT.
const listPath = (name: CollectionName) => `/${name}` as '/symbols';
const itemPath = (name: CollectionName) => `/${name}/{id}` as '/symbols/{id}';
const seedOf = (name: CollectionName) => COLLECTIONS[name]!.seed;
const limitOf = (name: CollectionName) => COLLECTIONS[name]!.limit;
const idParam = (id: string) => ({ path: { id } });
/** A documented list filter of each collection. */
const FILTER_FIELD = { accounts: 'currency', notifications: 'level', subscription: 'endpoint', symbols: 'code' } as const;
/** The record's name in operationIds (getAccount, getSymbol…). */
const RECORD_NAME = { accounts: 'Account', notifications: 'Notification', subscription: 'Subscription', symbols: 'Symbol' } as const;
const fieldOf = (record: object, field: string) => String((record as Record<string, unknown>)[field]);

describe('mode (b): every operation through prism proxy into the Node mock', () => {
  it("Prism keeps the upstream's path prefix: /symbols on the proxy reaches /api/symbols", async () => {
    const seen: string[] = [];
    const listener = (req: IncomingMessage) => seen.push(`${req.method} ${req.url}`);
    backend.server.server.on('request', listener);
    try {
      await collectionsApi(api).list('symbols', { code: 'AAPL' });
      await root.GET('/assets/ui-config.json');
    } finally {
      backend.server.server.off('request', listener);
    }
    expect(seen).toEqual(['GET /api/symbols?code=AAPL', 'GET /assets/ui-config.json']);
  });

  describe('profile', () => {
    const profiles = () => profileCalls(api);

    it('getMyProfile answers 204 without a body while there is no profile, then 200 with it', async () => {
      expect(await profiles().get()).toBeNull();
      expect(recorder.last('getMyProfile').status).toBe(204);
      const created = await profiles().create(SAMPLE_PROFILE, null);
      expect(await profiles().get()).toEqual(created);
      expect(recorder.last('getMyProfile').status).toBe(200);
    });

    it('createProfile sends multipart form data and answers 201, a Location and the stored profile', async () => {
      const events: TransferEvent[] = [];
      const created = await profiles().create(SAMPLE_PROFILE, null, { onProgress: (e) => events.push(e) });
      const { id, createdAt, updatedAt, ...rest } = created;
      expect(rest).toEqual({ ...SAMPLE_PROFILE, avatar: null });
      expect(updatedAt).toBe(createdAt);
      expect(Date.now() - Date.parse(createdAt)).toBeLessThan(10_000);
      const answer = recorder.last('createProfile');
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe(`/api/user/profile/${id}`);
      expect(events.map((e) => e.type)).toEqual(['sent', 'upload', 'download']);
    });

    it('createProfile and updateProfile accept the other documented media type, JSON, as well', async () => {
      const created = await api.POST('/user/profile', { body: SAMPLE_PROFILE });
      expect(created.response.status).toBe(201);
      expect(created.response.headers.get('content-type')).toBe('application/json');
      expect(created.data).toMatchObject({ ...SAMPLE_PROFILE, avatar: null });
      const patched = await api.PATCH('/user/profile/{id}', {
        params: { ...idParam(created.data!.id), header: { 'If-Match': created.response.headers.get('etag') ?? '' } },
        body: { bio: 'JSON works too.' },
      });
      expect(patched.response.status).toBe(200);
      expect(patched.data).toMatchObject({ ...SAMPLE_PROFILE, bio: 'JSON works too.' });
    });

    it('a second createProfile answers 409', async () => {
      await profiles().create(SAMPLE_PROFILE, null);
      await expect(profiles().create({ ...SAMPLE_PROFILE, username: 'other' }, null)).rejects.toMatchObject({
        status: 409,
        body: errorBody(409, 'A profile already exists: update it instead'),
      });
    });

    it('updateProfile changes the fields sent and keeps the others', async () => {
      const created = await profiles().create(SAMPLE_PROFILE, null);
      const { etag } = await profiles().read();
      const updated = await profiles().update(created.id, { displayName: 'Ada L.', interests: ['engines'] }, null, { ifMatch: etag ?? '' });
      expect(recorder.last('updateProfile').status).toBe(200);
      expect(updated).toEqual({ ...created, displayName: 'Ada L.', interests: ['engines'], updatedAt: updated.updatedAt });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
      expect(await profiles().get()).toEqual(updated);
    });

    it('deleteProfile answers 204 and the profile is gone', async () => {
      const created = await profiles().create(SAMPLE_PROFILE, null);
      await profiles().remove(created.id, (await profiles().read()).etag ?? '');
      expect(recorder.last('deleteProfile').status).toBe(204);
      expect(await profiles().get()).toBeNull();
      // `*` names whatever version exists: none does any more.
      await expect(profiles().remove(created.id, '*')).rejects.toMatchObject({
        status: 404,
        body: errorBody(404, `Profile '${created.id}' not found`),
      });
    });

    it('getProfileAvatar answers the image as image/png', async () => {
      // Prism's proxy re-encodes binary bodies as UTF-8 text both ways (0x89, the PNG signature's
      // first byte, becomes U+FFFD), so the image goes up and its bytes are compared straight
      // with the Node server; through the proxy only the answer's status and type are checked.
      const png = makePng(16);
      const created = await profileCalls(node).create(SAMPLE_PROFILE, new Blob([png], { type: 'image/png' }));
      const { response, data } = await api.GET('/user/profile/{id}/avatar', { params: idParam(created.id), parseAs: 'arrayBuffer' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(data?.byteLength).toBeGreaterThan(0);
      const straight = await node.GET('/user/profile/{id}/avatar', { params: idParam(created.id), parseAs: 'arrayBuffer' });
      expect(new Uint8Array(straight.data!)).toEqual(png);
      await profileCalls(node).remove(created.id, (await profileCalls(node).read()).etag ?? '');
      const gone = await api.GET('/user/profile/{id}/avatar', { params: idParam(created.id) });
      expect(gone.response.status).toBe(404);
    });
  });

  describe.each(COLLECTION_NAMES)('collection %s', (name) => {
    const col = () => collectionsApi(api);
    /** A record that exists after the reset (subscription has no seed: one is created). */
    const anExistingId = async () => seedOf(name)[0]?.id ?? (await col().create(name, SAMPLE_INPUT[name])).id;

    it('list answers the seed data, and filters by equality on a field', async () => {
      const all = await col().list(name);
      const seed = seedOf(name);
      if (name === 'notifications') {
        expect(all).toEqual([...seed].sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt))));
      } else {
        expect(all).toEqual(seed);
      }
      const stored: object[] = seed.length > 0 ? [...seed] : [await col().create(name, SAMPLE_INPUT[name])];
      const field = FILTER_FIELD[name];
      const value = fieldOf(stored.at(-1)!, field);
      // The query type differs per collection; FILTER_FIELD names a documented filter of each.
      const filtered = await col().list(name, { [field]: value } as never);
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered).toEqual(stored.filter((r) => fieldOf(r, field) === value).map((r) => expect.objectContaining(r)));
    });

    it('create answers 201, a Location and the record with the next numeric id', async () => {
      let remaining = seedOf(name);
      if (remaining.length >= limitOf(name)) {
        await col().remove(name, remaining[remaining.length - 1]!.id);
        remaining = remaining.slice(0, -1);
      }
      const expectedId = String(Math.max(0, ...remaining.map((r) => Number(r.id))) + 1);
      const { response, data } = await api.POST(listPath(name), { body: SAMPLE_INPUT[name] as never });
      expect(response.status).toBe(201);
      expect(data).toEqual({ ...SAMPLE_INPUT[name], id: expectedId });
      expect(response.headers.get('location')).toBe(`/api/${name}/${expectedId}`);
      expect(await col().read(name, expectedId)).toEqual(data);
    });

    it('read answers the record', async () => {
      const id = await anExistingId();
      const record = await col().read(name, id);
      expect(record.id).toBe(id);
      const seeded = seedOf(name).find((r) => r.id === id);
      expect(record).toEqual(seeded ?? { ...SAMPLE_INPUT[name], id });
      expect(recorder.last(`get${RECORD_NAME[name]}`).status).toBe(200);
    });

    it('replace answers the stored record, which replaces the old one whole', async () => {
      const id = await anExistingId();
      const replaced = await col().replace(name, id, REPLACEMENT[name]);
      expect(replaced).toEqual({ ...REPLACEMENT[name], id });
      expect(await col().read(name, id)).toEqual(replaced);
      // The body may repeat the URL's id.
      const again = await col().replace(name, id, { ...SAMPLE_INPUT[name], id });
      expect(again).toEqual({ ...SAMPLE_INPUT[name], id });
    });

    it('delete answers 204 and the record is gone', async () => {
      const id = await anExistingId();
      await col().remove(name, id);
      await expect(col().read(name, id)).rejects.toMatchObject({
        status: 404,
        body: errorBody(404, `Record '${id}' not found in collection '${name}'`),
      });
    });

    it('patch answers 405 with the methods allowed', async () => {
      const { response, error } = await api.PATCH(itemPath(name), { params: idParam(await anExistingId()) });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, PUT, DELETE');
      expect(error).toEqual(errorBody(405, 'Method not allowed'));
    });
  });

  describe('commands and configuration', () => {
    it('runCommand reset restores every collection and removes the profile', async () => {
      await collectionsApi(api).remove('symbols', '1');
      await collectionsApi(api).create('notifications', SAMPLE_INPUT.notifications);
      await profileCalls(api).create(SAMPLE_PROFILE, null);
      const { response } = await api.POST('/commands/{name}', { params: { path: { name: 'reset' } } });
      expect(response.status).toBe(204);
      expect(await collectionsApi(api).list('symbols')).toEqual(seedOf('symbols'));
      expect(await collectionsApi(api).list('notifications')).toHaveLength(seedOf('notifications').length);
      expect(await profileCalls(api).get()).toBeNull();
    });

    it("getUiConfig answers the build's assets/ui-config.json (through a proxy in front of the origin root)", async () => {
      const { response, data } = await root.GET('/assets/ui-config.json');
      expect(response.status).toBe(200);
      expect(data).toEqual(UI_CONFIG);
    });
  });
});

describe('error catalogue (backend rows), through the proxy', () => {
  it.each([
    ['/datapower/serviceproxy', 'serviceproxy'],
    ['/nas/cluster', 'cluster'],
    ['/layer7/my.cnf', 'mycnf'],
  ] as const)('404 "Collection \'{name}\' not found" via the alias %s (rewritten to %s)', async (path, rewritten) => {
    const { response, error } = await api.GET(path);
    expect(response.status).toBe(404);
    expect(error).toEqual(errorBody(404, `Collection '${rewritten}' not found`));
  });

  it('the alias notifications/own answers the notifications list', async () => {
    await collectionsApi(api).create('notifications', SAMPLE_INPUT.notifications);
    const own = await api.GET('/notifications/own');
    expect(own.response.status).toBe(200);
    const list = await collectionsApi(api).list('notifications');
    expect(list).toHaveLength(seedOf('notifications').length + 1);
    expect(own.data).toEqual(list);
  });

  describe('the inbox', () => {
    const inbox = () => inboxApi(api);

    it('a member marks one read, unread, then everything; the count follows, through the proxy', async () => {
      expect(await inbox().unreadCount()).toBe(2);
      expect(await inbox().markRead('2')).toBe(1);
      expect((await inbox().list('en')).items.find((n) => n.id === '2')?.read).toBe(true);
      expect(await inbox().markUnread('3')).toBe(2);
      expect(await inbox().markAllRead(seedOf('notifications')[1]!.createdAt as string)).toBe(1);
      expect(await inbox().markAllRead()).toBe(0);
      expect(recorder.last('markAllNotificationsRead').status).toBe(200);
      // A guest still counts the stored values.
      expect(await (await fetch(`${backend.proxy.url}/notifications/unread-count`)).json()).toEqual({ unread: 2 });
    });

    it('answers the language asked, saying which, and English for one it has not', async () => {
      const french = await inbox().list('fr');
      expect(french.language).toBe('fr');
      expect(french.items.map((n) => n.title)).toContain('Bienvenue sur Circle');
      const one = await api.GET('/notifications/{id}', { params: { ...idParam('2'), header: { 'Accept-Language': 'de' } } });
      expect([one.data?.title, one.response.headers.get('content-language')]).toEqual(['Neue Lerngruppe', 'de']);
      const italian = await inbox().list('it');
      expect([italian.language, italian.items.map((n) => n.title)]).toEqual([
        'en',
        seedOf('notifications')
          .map((n) => n.title)
          .reverse(),
      ]);
    });

    it('404 for a mark of a notification there is not', async () => {
      await expect(inbox().markUnread('9')).rejects.toMatchObject({ status: 404 });
      expect(recorder.last('markNotificationUnread').status).toBe(404);
    });
  });

  it('404 for a missing id', async () => {
    const { response, error } = await api.GET('/symbols/{id}', { params: idParam('9') });
    expect(response.status).toBe(404);
    expect(error).toEqual(errorBody(404, "Record '9' not found in collection 'symbols'"));
  });

  it("405 'Method not allowed' for PATCH on an item, with an Allow header", async () => {
    const { response, error } = await api.PATCH('/accounts/{id}', { params: idParam('1') });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PUT, DELETE');
    expect(error).toEqual(errorBody(405, 'Method not allowed'));
  });

  it('400 when the id in a PUT body differs from the URL', async () => {
    const { response, error } = await api.PUT('/symbols/{id}', { params: idParam('1'), body: { ...SAMPLE_INPUT.symbols, id: '2' } });
    expect(response.status).toBe(400);
    expect(error).toEqual(errorBody(400, "Id in the URL ('1') does not match the id in the body ('2')"));
    expect(await collectionsApi(api).read('symbols', '1')).toEqual(seedOf('symbols')[0]);
  });

  it('409 when creating a record with an id that exists', async () => {
    const { response, error } = await api.POST('/notifications', { body: { ...SAMPLE_INPUT.notifications, id: '2' } });
    expect(response.status).toBe(409);
    expect(error).toEqual(errorBody(409, "Record '2' already exists in collection 'notifications'"));
  });

  it.each(['symbols', 'accounts'] as const)('422 when %s, which holds at most 3 records, is full', async (name) => {
    expect(seedOf(name)).toHaveLength(3);
    const { response, error } = await api.POST(listPath(name), { body: SAMPLE_INPUT[name] as never });
    expect(response.status).toBe(422);
    expect(error).toEqual(errorBody(422, `Collection '${name}' holds at most 3 records`));
  });

  it('422 when no id can be generated', async () => {
    // Two slots must be freed: the record with the largest safe id fills one again, and a full
    // collection answers "holds at most 3" before an id is ever generated.
    await collectionsApi(api).remove('symbols', '2');
    await collectionsApi(api).remove('symbols', '3');
    const max = await collectionsApi(api).create('symbols', { id: String(Number.MAX_SAFE_INTEGER), code: 'MAX', entity: 'Largest id' });
    expect(max.id).toBe('9007199254740991');
    const { response, error } = await api.POST('/symbols', { body: SAMPLE_INPUT.symbols });
    expect(response.status).toBe(422);
    expect(error).toEqual(errorBody(422, "No id can be generated for collection 'symbols': send one in the body"));
  });

  it("500 for an unknown command, in the API's error shape (not a Prism violation)", async () => {
    const { response, error } = await api.POST('/commands/{name}', { params: { path: { name: 'explode' } } });
    expect(response.status).toBe(500);
    expect(Object.keys(error as object).sort()).toEqual(['error', 'message', 'status']);
    expect(error).toEqual(errorBody(500, "Unknown command 'explode'"));
  });

  describe('client-side error strings', () => {
    it("profileErrorMessage: 'Backend returned code {status}, with body {message}' for an API error", async () => {
      const error = await profileCalls(api)
        .remove('nobody', '*')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(profileErrorMessage(error)).toBe("Backend returned code 404, with body Profile 'nobody' not found");
    });

    it("profileErrorMessage: 'An error occurred: {message}' for a network error", async () => {
      const closed = createApiClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, log: () => {} });
      const error = await profileCalls(closed)
        .get()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).message).toBe('fetch failed');
      expect(profileErrorMessage(error)).toBe('An error occurred: fetch failed');
    });

    it("backendErrorMiddleware logs 'Backend Error ! status, error, message' for each error answer, and nothing else", async () => {
      await collectionsApi(api).list('symbols');
      expect(backendLog).toEqual([]);
      await expect(collectionsApi(api).read('symbols', '9')).rejects.toBeInstanceOf(ApiError);
      await api.PATCH('/symbols/{id}', { params: idParam('1') });
      expect(backendLog).toEqual([
        "Backend Error ! 404, Not Found, Record '9' not found in collection 'symbols'",
        'Backend Error ! 405, Method Not Allowed, Method not allowed',
      ]);
    });
  });
});

describe('coverage of mode (b)', () => {
  it('exercised every operation of openapi.yaml through the proxy', () => {
    expect([...recorder.seen].sort()).toEqual(contract.operationIds);
  });

  it('no answer through the proxy was a 500 except the unknown command', () => {
    const fiveHundreds = recorder.answers.filter((a) => a.status === 500).map((a) => a.op);
    expect(fiveHundreds).toEqual(['runCommand']);
  });
});
