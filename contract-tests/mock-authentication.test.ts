/**
 * The mock's handlers in process (no server, no provider): which operations ask `authenticate`,
 * what they answer when it refuses, and that the default without one refuses every secured call.
 * The identities are the test double of testkit/test-identities.ts (`Bearer test-<subject>`).
 */
import { getResponse, type HttpHandler } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Authenticate } from '../mock-api/index.ts';
import { createContract } from '../mock-api/index.ts';
import { ifMatchAllows } from '../mock-api/index.ts';
import { createMockBackend } from '../mock-api/index.ts';
import { loadSpec } from '../openapi-kit/node.ts';
import { SAMPLE_PROFILE } from '../testkit/index.ts';
import { bearerOf, testAuthenticate } from '../testkit/index.ts';

const contract = createContract(loadSpec());
const ORIGIN = 'http://mock.test';

async function handlersWith(authenticate?: Authenticate): Promise<HttpHandler[]> {
  return (await createMockBackend({ contract, delayMs: 0, anyOrigin: true, ...(authenticate ? { authenticate } : {}) })).handlers;
}
const send = async (handlers: HttpHandler[], method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const answer = await getResponse(handlers, new Request(`${ORIGIN}/api${path}`, init));
  if (!answer) throw new Error(`no handler answered ${method} ${path}`);
  return answer;
};

describe('which operations are secured', () => {
  it("the profile operations and the inbox's marks, and the shared collections' writes, the push subscriptions' reads and the commands, which need an admin, as openapi.yaml declares them", () => {
    const secured = contract.spec.operations.filter((op) => op.secured);
    expect(
      secured
        .filter((op) => op.roles.length === 0)
        .map((op) => op.id)
        .sort(),
    ).toEqual([
      'createProfile',
      'deleteProfile',
      'getMyProfile',
      'getProfileAvatar',
      'markAllNotificationsRead',
      'markNotificationRead',
      'markNotificationUnread',
      'updateProfile',
    ]);
    expect(
      secured
        .filter((op) => op.roles.includes('admin'))
        .map((op) => op.id)
        .sort(),
    ).toEqual([
      'createAccount',
      'createNotification',
      'createSymbol',
      'deleteAccount',
      'deleteNotification',
      'deleteSymbol',
      'getSubscription',
      'listSubscriptions',
      'replaceAccount',
      'replaceNotification',
      'replaceSubscription',
      'replaceSymbol',
      'runCommand',
    ]);
    expect(contract.spec.byId('updateProfile').security).toEqual([{ bearer: [] }, { openId: ['openid'] }]);
    expect(contract.spec.byId('createSymbol').security).toEqual([{ bearer: ['admin'] }]);
    expect(contract.spec.byId('listSymbols').security).toEqual([]);
    expect(contract.spec.byId('createSubscription').security).toEqual([]);
  });
});

describe('without an authenticate option', () => {
  let handlers: HttpHandler[];
  beforeAll(async () => {
    handlers = await handlersWith();
  });

  it('refuses every secured call with 401 and a challenge, even one that carries a token', async () => {
    for (const headers of [{}, bearerOf('ada')]) {
      const answer = await send(handlers, 'GET', '/user/profile/myprofile', headers);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="circle"');
    }
    expect((await send(handlers, 'POST', '/user/profile', {}, SAMPLE_PROFILE)).status).toBe(401);
  });

  it('answers the open operations', async () => {
    expect((await send(handlers, 'GET', '/symbols')).status).toBe(200);
  });
});

describe('with an authenticate option', () => {
  it('asks it before anything else: an unknown id or a broken body of an anonymous caller is still 401', async () => {
    const handlers = await handlersWith(testAuthenticate);
    expect((await send(handlers, 'PATCH', '/user/profile/none', {}, { nope: 1 })).status).toBe(401);
    expect((await send(handlers, 'DELETE', '/user/profile/none', { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await send(handlers, 'PATCH', '/user/profile/none', { ...bearerOf('ada'), 'if-match': '*' }, { bio: 'x' })).status).toBe(404);
  });

  it('gives the resolvers the identity it read: the subject owns what it creates', async () => {
    const handlers = await handlersWith(testAuthenticate);
    const created = await send(handlers, 'POST', '/user/profile', bearerOf('linus'), SAMPLE_PROFILE);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await send(handlers, 'GET', `/user/profile/${id}/avatar`, bearerOf('ada'))).status).toBe(403);
    expect((await send(handlers, 'GET', `/user/profile/${id}/avatar`, bearerOf('linus'))).status).toBe(404);
  });

  it('a check that fails for another reason than a refusal is a 500 of the mock, never an answer without credentials', async () => {
    const handlers = await handlersWith(async () => {
      throw new Error('The identity provider is not ready');
    });
    const original = console.error;
    console.error = () => {};
    try {
      expect((await send(handlers, 'GET', '/user/profile/myprofile', bearerOf('ada'))).status).toBe(500);
    } finally {
      console.error = original;
    }
  });
});

describe('ifMatchAllows', () => {
  it('matches *, or the current tag compared strongly, alone or in a list', () => {
    expect(ifMatchAllows('*', '"a.1"')).toBe(true);
    expect(ifMatchAllows(' * ', '"a.1"')).toBe(true);
    expect(ifMatchAllows('"a.1"', '"a.1"')).toBe(true);
    expect(ifMatchAllows('"b.2", "a.1"', '"a.1"')).toBe(true);
    expect(ifMatchAllows('W/"a.1"', '"a.1"')).toBe(false);
    expect(ifMatchAllows('"a.2"', '"a.1"')).toBe(false);
    expect(ifMatchAllows('a.1', '"a.1"')).toBe(false);
    expect(ifMatchAllows('', '"a.1"')).toBe(false);
  });
});

describe('Prefer and scenario answers', () => {
  it('are given for a secured operation only to a caller who is signed in (security first, as in Prism)', async () => {
    const handlers = await handlersWith(testAuthenticate);
    const anonymous = await send(handlers, 'GET', '/user/profile/myprofile', { prefer: 'code=200' });
    expect(anonymous.status).toBe(401);
    const signedIn = await send(handlers, 'GET', '/user/profile/myprofile', { prefer: 'code=200', ...bearerOf('ada') });
    expect(signedIn.status).toBe(200);
    expect((await send(handlers, 'GET', '/symbols', { prefer: 'code=200' })).status).toBe(200);
  });

  it('a scenario rule of a secured operation answers a signed-in caller only', async () => {
    const backend = await createMockBackend({
      contract,
      delayMs: 0,
      anyOrigin: true,
      authenticate: testAuthenticate,
      scenario: { getMyProfile: [{ rate: 1, status: 503 }] },
    });
    expect((await send(backend.handlers, 'GET', '/user/profile/myprofile')).status).toBe(401);
    expect((await send(backend.handlers, 'GET', '/user/profile/myprofile', bearerOf('ada'))).status).toBe(503);
  });
});
