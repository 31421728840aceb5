/**
 * The set-up of the peer tools verify is compared with (verify/peers/), without the tools: the plan
 * Dredd's hooks give each transaction and how the hooks carry it out, Portman's configuration
 * against openapi.yaml, the collection's pruning, newman's variables, where the tools go.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OpenApiSpec, type OperationSpec } from '../../openapi-kit/index.ts';
import { loadSpec } from '../../openapi-kit/node.ts';
import { installHooks, type PeerContext, type Transaction } from '../peers/dredd-hooks.ts';
import { callerFor, OTHER_SITE, planStep } from '../peers/dredd-plan.ts';
import { newmanVariables, pruneUnfuzzed } from '../peers/portman.ts';
import { bin, installArgs, isPeerName, PEERS, peersDir } from '../peers/tools.ts';

const spec = new OpenApiSpec(loadSpec());
const op = (id: string): OperationSpec => spec.byId(id);
const plan = (id: string, status: string, requestMedia?: string, responseMedia?: string) =>
  planStep(spec, op(id), status, requestMedia, responseMedia);
const ADMIN_OPS = spec.operations.filter((o) => o.roles.includes('admin')).map((o) => o.id);

const context: PeerContext = {
  baseUrl: 'http://127.0.0.1:4321/api',
  authorization: { member: 'Bearer grace-token', other: 'Bearer linus-token', admin: 'Bearer ada-token' },
};

describe("Dredd: the caller of each operation, from the document's security", () => {
  it('the admin where the security names the role, a member where it needs a token, nobody where it is open', () => {
    expect(ADMIN_OPS.length).toBeGreaterThan(0);
    for (const o of spec.operations) {
      expect(callerFor(o), o.id).toBe(o.roles.includes('admin') ? 'admin' : o.secured ? 'member' : 'none');
    }
    expect(callerFor(op('createAccount'))).toBe('admin');
    expect(callerFor(op('runCommand'))).toBe('admin');
    expect(callerFor(op('updateProfile'))).toBe('member');
    expect(callerFor(op('listAccounts'))).toBe('none');
    // A device stores and removes its own push subscription, signed in or not; only an admin reads them.
    expect(callerFor(op('createSubscription'))).toBe('none');
    expect(callerFor(op('deleteSubscription'))).toBe('none');
    expect(callerFor(op('listSubscriptions'))).toBe('admin');
  });
});

describe('Dredd: the plan of each documented answer', () => {
  it('a success: the caller, the record created in the run, the state it needs', () => {
    expect(plan('createAccount', '201', 'application/json')).toEqual({ caller: 'admin', before: 'room' });
    expect(plan('getAccount', '200')).toEqual({ caller: 'none', path: 'created' });
    expect(plan('replaceSymbol', '200', 'application/json')).toEqual({ caller: 'admin', path: 'created' });
    expect(plan('getMyProfile', '200')).toEqual({ caller: 'member', before: 'profile' });
    expect(plan('getMyProfile', '204')).toEqual({ caller: 'member', before: 'no-profile' });
    expect(plan('createProfile', '201', 'application/json')).toEqual({ caller: 'member', before: 'no-profile', idempotencyKey: 'fresh' });
    expect(plan('updateProfile', '200', 'application/json')).toEqual({
      caller: 'member',
      path: 'profile',
      before: 'profile',
      ifMatch: 'current',
      idempotencyKey: 'fresh',
    });
    expect(plan('getProfileAvatar', '200', undefined, 'image/png')).toMatchObject({ path: 'profile', before: 'avatar' });
    expect(plan('runCommand', '204')).toEqual({ caller: 'admin' });
  });

  it('an error: the request that gets it', () => {
    expect(plan('createAccount', '401', 'application/json')).toMatchObject({ caller: 'none' });
    expect(plan('deleteSymbol', '403')).toMatchObject({ caller: 'member', path: 'created' });
    expect(plan('deleteProfile', '403')).toMatchObject({ caller: 'other', path: 'profile', before: 'profile' });
    expect(plan('createSubscription', '403', 'application/json')).toMatchObject({ caller: 'none', headers: { Origin: OTHER_SITE } });
    expect(plan('getAccount', '404')).toEqual({ caller: 'none', path: 'missing' });
    expect(plan('updateProfile', '404', 'application/json')).not.toHaveProperty('before');
    expect(plan('getServiceProxy', '404')).toEqual({ caller: 'none' });
    expect(plan('patchAccount', '405')).toEqual({ caller: 'none', path: 'created' });
    expect(plan('listAccounts', '400')).toMatchObject({ repeatQuery: true });
    expect(plan('createAccount', '400', 'application/json')).toMatchObject({ body: { kind: 'malformed' } });
    expect(plan('replaceAccount', '400', 'application/json')).toMatchObject({ body: { kind: 'other-id' } });
    expect(plan('runCommand', '400')).toMatchObject({ path: 'too-long' });
    expect(plan('runCommand', '500')).toMatchObject({ path: 'unknown-command' });
    expect(plan('createNotification', '409', 'application/json')).toMatchObject({ body: { kind: 'existing-id' } });
    expect(plan('createProfile', '409', 'application/json')).toMatchObject({ before: 'profile', idempotencyKey: 'fresh' });
    expect(plan('updateProfile', '412', 'application/json')).toMatchObject({ ifMatch: 'stale' });
    expect(plan('deleteProfile', '428')).toMatchObject({ ifMatch: 'absent' });
    // x-max-body-bytes of the JSON body, one byte over.
    expect(plan('createSymbol', '413', 'application/json')).toMatchObject({ body: { kind: 'oversized', bytes: 65537 } });
    expect(plan('replaceAccount', '415', 'application/json')).toMatchObject({ contentType: 'text/plain' });
    // accounts hold at most three: full again once the create made room and added one.
    expect(plan('createAccount', '422', 'application/json')).toEqual({ caller: 'admin' });
    expect(plan('updateProfile', '422', 'application/json')).toMatchObject({ idempotencyKey: 'reuse', body: { kind: 'changed' } });
  });

  it('skips, each with its reason, only what Dredd cannot send or nothing provokes', () => {
    const skipped: string[] = [];
    for (const o of spec.operations) {
      const media = Object.keys(o.body?.content ?? {});
      for (const status of o.statuses) {
        const responses = o.responses[status]?.content?.map((c) => c.media) ?? [undefined];
        for (const requestMedia of media.length ? media : [undefined]) {
          for (const responseMedia of responses) {
            const step = planStep(spec, o, status, requestMedia, responseMedia);
            if (step.skip) {
              expect(step.skip.length, `${o.id} ${status}`).toBeGreaterThan(20);
              if (requestMedia !== 'multipart/form-data')
                skipped.push(`${o.id} ${status}${responseMedia?.startsWith('image/') ? ` ${responseMedia}` : ''}`);
            }
          }
        }
      }
    }
    expect(plan('createProfile', '201', 'multipart/form-data').skip).toMatch(/multipart/);
    expect(skipped.sort()).toEqual(
      [
        'createNotification 422',
        'createSubscription 422',
        // Eleven anonymous creates from one client in a minute: Dredd sends one request per answer.
        'createSubscription 429',
        'getMyProfile 405',
        'getProfileAvatar 200 image/jpeg',
        'getProfileAvatar 200 image/webp',
        'getUiConfig 200',
        'getUiConfig 404',
        'listOwnNotifications 400',
      ].sort(),
    );
  });
});

describe('Dredd: the hooks carry the plan out', () => {
  type Hook = (transaction: Transaction, done: () => void) => void;

  function hooked() {
    const registered: { before?: Hook; after?: Hook } = {};
    installHooks({ beforeEach: (hook) => (registered.before = hook), afterEach: (hook) => (registered.after = hook) }, context, spec);
    const run = (hook: Hook | undefined, transaction: Transaction) =>
      new Promise<Transaction>((done) => hook!(transaction, () => done(transaction)));
    return { send: (t: Transaction) => run(registered.before, t), answered: (t: Transaction) => run(registered.after, t) };
  }

  const transaction = (method: string, resource: string, example: string, uri: string, body = ''): Transaction => ({
    name: `${resource} > ${method} > ${example}`,
    origin: { resourceName: resource, exampleName: example },
    request: {
      method,
      uri,
      headers: { Accept: 'application/json', Prefer: '', ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body,
    },
    fullPath: `/api${uri}`,
    skip: false,
  });

  it('a missing id, no token, no Prefer', async () => {
    const { send } = hooked();
    const t = await send(transaction('GET', '/accounts/{id}', '404 > application/json', '/accounts/1'));
    expect(t.fullPath).toBe('/api/accounts/no-such-record');
    expect(t.request.headers).toEqual({ Accept: 'application/json' });
    expect(t.fail).toBeUndefined();
  });

  it("a member's token where the admin's is needed; an admin's where the operation asks for it", async () => {
    const { send } = hooked();
    const body = JSON.stringify({ name: 'Event budget', currency: 'EUR', balance: 300 });
    const refused = await send(transaction('POST', '/accounts', '403 > application/json', '/accounts', body));
    expect(refused.request.headers.Authorization).toBe('Bearer grace-token');
    const malformed = await send(transaction('POST', '/accounts', '400 > application/json', '/accounts', body));
    expect(malformed.request.headers.Authorization).toBe('Bearer ada-token');
    expect(malformed.request.body).toBe('{"');
  });

  it('the record a create answered, for the transactions after it; none yet fails the transaction', async () => {
    const { send, answered } = hooked();
    const early = await send(transaction('GET', '/symbols/{id}', '200 > application/json', '/symbols/1'));
    expect(early.fail).toMatch(/no record of \/symbols was created/);
    const create = transaction('POST', '/symbols', '409 > application/json', '/symbols', '{"code":"AMZN","entity":"Amazon"}');
    create.real = { statusCode: 201, headers: {}, body: '{"id":"7","code":"AMZN","entity":"Amazon"}' };
    await answered(create);
    const read = await send(transaction('GET', '/symbols/{id}', '200 > application/json', '/symbols/1'));
    expect(read.fullPath).toBe('/api/symbols/7');
    const conflict = await send(transaction('POST', '/symbols', '409 > application/json', '/symbols', '{"code":"AMZN","entity":"Amazon"}'));
    expect(JSON.parse(conflict.request.body)).toEqual({ code: 'AMZN', entity: 'Amazon', id: '7' });
    const replace = await send(
      transaction('PUT', '/symbols/{id}', '400 > application/json', '/symbols/1', '{"code":"AMZN","entity":"Amazon"}'),
    );
    expect(replace.fullPath).toBe('/api/symbols/7');
    expect(JSON.parse(replace.request.body).id).not.toBe('7');
  });

  it('a body one byte over the limit, text/plain for a 415, a repeated filter for a 400', async () => {
    const { send } = hooked();
    const body = '{"code":"AMZN","entity":"Amazon"}';
    const large = await send(transaction('POST', '/symbols', '413 > application/json', '/symbols', body));
    expect(Buffer.byteLength(large.request.body)).toBe(body.length + 65537);
    const plain = await send(transaction('POST', '/symbols', '415 > application/json', '/symbols', body));
    expect(plain.request.headers['Content-Type']).toBe('text/plain');
    const twice = await send(transaction('GET', '/symbols', '400 > application/json', '/symbols'));
    expect(twice.fullPath).toBe('/api/symbols?code=x&code=x');
  });

  it('a transaction it skips is marked skipped, with nothing sent before it', async () => {
    const { send } = hooked();
    const t = await send(transaction('GET', '/user/profile/myprofile', '405 > application/json', '/user/profile/myprofile'));
    expect(t.skip).toBe(true);
  });
});

describe("Portman: the configuration against openapi.yaml's operations", () => {
  const config = JSON.parse(readFileSync(join(import.meta.dirname, '../peers/portman-config.json'), 'utf8')) as {
    tests: {
      contractTests: Array<Record<string, unknown>>;
      variationTests: Array<Record<string, unknown> & { variations: Array<Record<string, unknown>> }>;
    };
    assignVariables: Array<Record<string, unknown> & { collectionVariables: Array<{ name: string }> }>;
    overwrites: Array<Record<string, unknown>>;
  };
  const ids = (entry: Record<string, unknown>): string[] =>
    [entry.openApiOperationId, ...((entry.openApiOperationIds as string[] | undefined) ?? [])].filter(
      (id): id is string => typeof id === 'string',
    );

  it('names only operations the document has', () => {
    const named = [
      ...config.tests.contractTests.flatMap((e) => [...ids(e), ...((e.excludeForOperations as string[] | undefined) ?? [])]),
      ...config.tests.variationTests.flatMap((e) => [...ids(e), ...((e.excludeForOperations as string[] | undefined) ?? [])]),
      ...config.assignVariables.flatMap(ids),
      ...config.overwrites.flatMap(ids),
    ];
    for (const id of named) expect(() => spec.byId(id), id).not.toThrow();
  });

  it("gives the admin's token exactly to the operations whose security names the role; the member's is refused on them", () => {
    const admin = config.overwrites.filter((o) => JSON.stringify(o.overwriteRequestSecurity ?? '').includes('{{adminToken}}')).flatMap(ids);
    expect(admin.sort()).toEqual([...ADMIN_OPS].sort());
    const refused = config.tests.variationTests.filter((v) => v.variations.some((x) => JSON.stringify(x).includes('{{bearerToken}}')));
    expect(refused.flatMap(ids).sort()).toEqual([...ADMIN_OPS].sort());
  });

  it("reads, replaces and deletes the record each collection's create answered", () => {
    for (const collection of spec.collections) {
      const assigned = config.assignVariables.find((a) => ids(a).includes(collection.create.id));
      const name = assigned?.collectionVariables[0]?.name;
      expect(name, collection.name).toBeDefined();
      const overwrite = config.overwrites.find((o) => o.openApiOperation === `*::${collection.itemPath}`);
      expect(JSON.stringify(overwrite?.overwriteRequestPathVariables)).toContain(`{{${name}}}`);
    }
  });
});

describe('Portman: the collection and its variables', () => {
  const request = (raw: string) => ({ request: { body: { raw } } });

  it('drops a fuzz request whose body is the example unchanged, and keeps the others', () => {
    const collection = {
      info: { name: 'Circle API' },
      item: [
        { name: 'symbols', item: [{ name: 'Create a symbol', ...request('{\n  "code": "AMZN"\n}') }] },
        {
          name: 'Variation Tests',
          item: [
            {
              name: 'symbols Variations',
              item: [
                { name: 'Create a symbol[fuzzed][maximum length id]', ...request('{\n    "code": "AMZN"\n}') },
                { name: 'Create a symbol[fuzzed][maximum length code]', ...request('{"code": "AMZNAA"}') },
                { name: 'Create a symbol[fuzzed][minimum length tags[0]]', ...request('{"code":"AMZN"}') },
                { name: 'Create a symbol[missing]', ...request('{"code":"AMZN"}') },
              ],
            },
          ],
        },
      ],
    };
    const { collection: pruned, dropped } = pruneUnfuzzed<{
      item?: Array<{ name?: string; item?: Array<{ name?: string; item?: Array<{ name?: string }> }> }>;
    }>(collection);
    expect(dropped).toEqual(['Create a symbol[fuzzed][maximum length id]', 'Create a symbol[fuzzed][minimum length tags[0]]']);
    expect(pruned.item?.[1]?.item?.[0]?.item?.map((i) => i.name)).toEqual([
      'Create a symbol[fuzzed][maximum length code]',
      'Create a symbol[missing]',
    ]);
  });

  it('the API base, its origin and the tokens without their scheme', () => {
    expect(newmanVariables(context)).toEqual({
      baseUrl: 'http://127.0.0.1:4321/api',
      origin: 'http://127.0.0.1:4321',
      bearerToken: 'grace-token',
      otherToken: 'linus-token',
      adminToken: 'ada-token',
    });
  });
});

describe('the tools: pinned, installed on demand under .cache/peers', () => {
  it('installs each tool at its pinned versions into its own folder, without touching package.json', () => {
    expect(installArgs('portman', '/x')).toEqual([
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefix',
      '/x/portman',
      '@apideck/portman@1.33.0',
      'newman@6.2.2',
    ]);
    expect(PEERS.dredd.packages).toEqual(['dredd@14.1.0']);
    expect(bin('portman', 'newman', '/x')).toBe('/x/portman/node_modules/newman/bin/newman.js');
  });

  it('CIRCLE_PEERS_DIR moves them (a mutation sandbox has no .cache); the names are checked', () => {
    expect(peersDir({ CIRCLE_PEERS_DIR: '/tmp/peers' })).toBe('/tmp/peers');
    expect(peersDir({})).toMatch(/\/\.cache\/peers$/);
    expect(isPeerName('dredd')).toBe(true);
    expect(isPeerName('toString')).toBe(false);
    expect(isPeerName(undefined)).toBe(false);
  });
});
