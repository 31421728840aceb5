/**
 * Mode (a): the app's generated client against `prism mock openapi.yaml --errors`.
 *
 * Prism's mock validates each request against the contract and answers from the contract's own
 * examples, so a 2xx here proves the client sends what the contract accepts and parses what it
 * documents. Every operation in openapi.yaml must have a driver below: the last test compares the
 * operations exercised with those in the file, so a new operation without a test fails the suite.
 *
 * It sits at the top of src/, not in api/, because it drives the requests of two layers: the api's
 * and the profile's, a layer above them (so do src/prism-proxy.contract.test.ts and
 * src/xsrf.contract.test.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { operations } from './api/schema';
import { createApiClient, type ApiClient } from './api/client';
import { collectionsApi } from './api/collections';
import { inboxApi } from './api/inbox';
import { profileCalls } from './test/profile-calls.test-support';
import type { TransferEvent } from './api/transport';
import { authorize } from './test/backend.test-support';
import { AnswerContract, Recorder } from '../openapi-kit/node.ts';
import { startPrismMock, type PrismProcess } from '../testkit/index.ts';
import { makePng } from '../openapi-kit/node.ts';
import { SAMPLE_PROFILE, SAMPLE_INPUT } from '../testkit/index.ts';

const contract = new AnswerContract();
const recorder = new Recorder(contract);
let prism: PrismProcess;
let client: ApiClient;
const backendLog: string[] = [];

beforeAll(async () => {
  prism = await startPrismMock();
  client = createApiClient({ baseUrl: prism.url, log: (line) => backendLog.push(line) });
  // The profile's operations are secured: Prism checks that a bearer token is there, not whose it is.
  authorize(client, 'Bearer any');
  client.use(recorder.middleware());
});

afterAll(async () => {
  await prism?.stop();
});

afterEach(() => {
  expect(recorder.take(), 'answers that break the contract').toEqual([]);
});

/** The body of an openapi-fetch answer, whichever side it landed on. */
const bodyOf = (r: { data?: unknown; error?: unknown }): unknown => r.data ?? r.error;
const ID = { path: { id: '1' } };
const PROFILE_ID = { path: { id: 'p-1' } };

type Driver = (client: ApiClient) => Promise<unknown>;

/** One call per operation, typed by the generated client: a new operationId breaks tsc here. */
const drivers: Record<keyof operations, Driver> = {
  getMyProfile: (c) => profileCalls(c).get(),
  createProfile: (c) => profileCalls(c).create(SAMPLE_PROFILE, new Blob([makePng(8)], { type: 'image/png' })),
  // Prism's mock keeps no versions: `*` (any version) is the If-Match that means nothing more.
  updateProfile: (c) => profileCalls(c).update('p-1', { displayName: 'Ada L.' }, null, { ifMatch: '*' }),
  deleteProfile: (c) => profileCalls(c).remove('p-1', '*'),
  getProfileAvatar: async (c) => bodyOf(await c.GET('/user/profile/{id}/avatar', { params: PROFILE_ID, parseAs: 'arrayBuffer' })),

  listAccounts: (c) => collectionsApi(c).list('accounts', { currency: 'EUR' }),
  createAccount: (c) => collectionsApi(c).create('accounts', SAMPLE_INPUT.accounts),
  getAccount: (c) => collectionsApi(c).read('accounts', '1'),
  replaceAccount: (c) => collectionsApi(c).replace('accounts', '1', SAMPLE_INPUT.accounts),
  deleteAccount: (c) => collectionsApi(c).remove('accounts', '1'),
  patchAccount: async (c) => bodyOf(await c.PATCH('/accounts/{id}', { params: ID })),

  listNotifications: (c) => collectionsApi(c).list('notifications', { level: 'info', read: 'false' }),
  createNotification: (c) => collectionsApi(c).create('notifications', SAMPLE_INPUT.notifications),
  getNotification: (c) => collectionsApi(c).read('notifications', '1'),
  replaceNotification: (c) => collectionsApi(c).replace('notifications', '1', SAMPLE_INPUT.notifications),
  deleteNotification: (c) => collectionsApi(c).remove('notifications', '1'),
  patchNotification: async (c) => bodyOf(await c.PATCH('/notifications/{id}', { params: ID })),
  countUnreadNotifications: (c) =>
    inboxApi(c)
      .unreadCount()
      .then((unread) => ({ unread })),
  markAllNotificationsRead: (c) =>
    inboxApi(c)
      .markAllRead('2026-11-20T08:15:00Z')
      .then((unread) => ({ unread })),
  markNotificationRead: (c) =>
    inboxApi(c)
      .markRead('1')
      .then((unread) => ({ unread })),
  markNotificationUnread: (c) =>
    inboxApi(c)
      .markUnread('1')
      .then((unread) => ({ unread })),

  listSubscriptions: (c) => collectionsApi(c).list('subscription', { endpoint: 'https://push.example.org/send/abc' }),
  createSubscription: (c) => collectionsApi(c).create('subscription', SAMPLE_INPUT.subscription),
  getSubscription: (c) => collectionsApi(c).read('subscription', '1'),
  replaceSubscription: (c) => collectionsApi(c).replace('subscription', '1', SAMPLE_INPUT.subscription),
  deleteSubscription: (c) => collectionsApi(c).remove('subscription', '1'),
  patchSubscription: async (c) => bodyOf(await c.PATCH('/subscription/{id}', { params: ID })),

  listSymbols: (c) => collectionsApi(c).list('symbols', { code: 'MSFT' }),
  createSymbol: (c) => collectionsApi(c).create('symbols', SAMPLE_INPUT.symbols),
  getSymbol: (c) => collectionsApi(c).read('symbols', '1'),
  replaceSymbol: (c) => collectionsApi(c).replace('symbols', '1', SAMPLE_INPUT.symbols),
  deleteSymbol: (c) => collectionsApi(c).remove('symbols', '1'),
  patchSymbol: async (c) => bodyOf(await c.PATCH('/symbols/{id}', { params: ID })),

  listOwnNotifications: async (c) => bodyOf(await c.GET('/notifications/own', { params: { header: { 'Accept-Language': 'fr' } } })),
  getServiceProxy: async (c) => bodyOf(await c.GET('/datapower/serviceproxy')),
  getNasCluster: async (c) => bodyOf(await c.GET('/nas/cluster')),
  getLayer7MyCnf: async (c) => bodyOf(await c.GET('/layer7/my.cnf')),
  runCommand: async (c) => bodyOf(await c.POST('/commands/{name}', { params: { path: { name: 'reset' } } })),
  getUiConfig: async (c) => bodyOf(await c.GET('/assets/ui-config.json')),
};

describe('mode (a): the generated client against prism mock', () => {
  it('openapi.yaml names each operation once and every one has a driver', () => {
    const ids = contract.operations.map((op) => op.id);
    expect(new Set(ids).size, 'duplicate operationIds').toBe(ids.length);
    expect(Object.keys(drivers).sort()).toEqual(contract.operationIds);
  });

  describe.each(contract.operations.map((op) => [op.id, op] as const))('%s', (id, op) => {
    it(`${op.method} ${op.path} answers the documented status and body`, async () => {
      const driver = (drivers as Record<string, Driver | undefined>)[id];
      if (!driver) throw new Error(`No driver for operation '${id}': add one to the drivers table`);
      const from = recorder.answers.length;
      const data = await driver(client);
      const expected = contract.mockStatus(op);
      expect(recorder.statusesSince(from, id)).toEqual([expected]);
      // Prism's static mock answers the first documented example; the client must hand it back intact.
      const example = contract.example(op, expected);
      if (example.found) expect(data).toEqual(example.value);
    });
  });

  it('Location and Allow headers come back as documented', async () => {
    const created = await client.POST('/symbols', { body: SAMPLE_INPUT.symbols });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('location')).toBe('/api/symbols/4');
    const patched = await client.PATCH('/symbols/{id}', { params: ID });
    expect(patched.response.status).toBe(405);
    expect(patched.response.headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  it('the profile upload reports progress through the mock too', async () => {
    const events: TransferEvent[] = [];
    await profileCalls(client).create(SAMPLE_PROFILE, null, { onProgress: (e) => events.push(e) });
    expect(events.map((e) => e.type)).toEqual(['sent', 'upload', 'download']);
  });

  it('prism mock refuses a request that breaks the contract (so the 2xx answers above mean something)', async () => {
    // Typed code, but lower case: the contract's pattern is ^[A-Z]{1,5}$.
    const from = recorder.answers.length;
    const result = await client.POST('/symbols', { body: { code: 'amzn', entity: 'Amazon.com, Inc.' } });
    expect(recorder.statusesSince(from, 'createSymbol')).toEqual([422]);
    // Surprise: because createSymbol documents a 422, the mock answers that response's *example*
    // (a "collection full" message), not a Prism problem body. Only the status tells them apart.
    const example = contract.example(contract.byId('createSymbol'), 422);
    expect(example.found).toBe(true);
    if (example.found) expect(result.error).toEqual(example.value);
    // Prism does name the violation, in an sl-violations header, which the recorder reports.
    const problems = recorder.take();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/Prism reports contract violations: .*"location":\["request","body","code"\].*"code":"pattern"/);
    expect(backendLog).toContain(`Backend Error ! 422, Unprocessable Entity, Collection 'symbols' holds at most 3 records`);
  });

  it('exercised every operation of openapi.yaml', () => {
    expect([...recorder.seen].sort()).toEqual(contract.operationIds);
  });
});
