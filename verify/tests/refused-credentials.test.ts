// @vitest-environment node
/**
 * The credentials the embedded start (verify/mock.ts) and the fault proxy give verify to refuse:
 * each is the member's, and the mock refuses each for its own reason, so that a check of the token
 * that goes missing lets one of them through. The one the API took once was taken indeed, before
 * it expired: a check that remembers the tokens it took must still see it expire.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/index.ts';
import { refusedAuthorizations } from '../mock.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, delayMs: 0, distDir: null });
});
afterAll(async () => {
  await server?.close();
});

describe('the credentials to refuse', () => {
  it('are refused by the mock, each with 401 for its own reason; the one taken once was taken before it expired', async () => {
    const taken: string[] = [];
    const watched: RunningServer = {
      ...server,
      authenticate: async (request) => {
        const identity = await server.authenticate(request);
        taken.push(request.headers.get('authorization') ?? '');
        return identity;
      },
    };
    const refused = await refusedAuthorizations(watched, 'grace');
    const answers = await Promise.all(
      refused.map(async (authorization) => {
        const answer = await fetch(`${server.url}/api/user/profile/myprofile`, { headers: { authorization } });
        return [answer.status, /error_description="([^"]*)"/.exec(answer.headers.get('www-authenticate') ?? '')?.[1]];
      }),
    );
    expect(answers).toEqual([
      [401, 'The access token is not one this server issued'],
      [401, 'The access token has been revoked: sign in again'],
      [401, 'The access token has expired: renew it'],
      [401, 'The access token has expired: renew it'],
      [401, 'The access token is not for this API'],
      [401, 'The access token names no member'],
      [401, 'The access token names no member'],
    ]);
    expect(taken).toEqual([refused[3]]);
  });

  it('are all the member’s, of the mock’s own provider, but the two that name no member', async () => {
    const claims = (await refusedAuthorizations(server, 'grace')).map((authorization) => decodeJwt(authorization.slice('Bearer '.length)));
    expect(claims.map((c) => [c.iss, c.sub])).toEqual([
      ...Array.from({ length: 5 }, () => [`${server.url}/oidc`, 'grace']),
      [`${server.url}/oidc`, undefined],
      [`${server.url}/oidc`, ''],
    ]);
    expect(claims.slice(2, 4).map((c) => c.exp! <= Math.floor(Date.now() / 1000))).toEqual([true, true]);
  });
});
