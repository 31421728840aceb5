// @vitest-environment node
/**
 * Signing out ends API access: a revoked access token, the tokens of a revoked refresh token's
 * grant (what the app's sign-out revokes), and every token of a member who signed out everywhere
 * are refused by the API (401). Each test starts its own server.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/index.ts';
import { SIGN_OUT_EVERYWHERE_PATH } from './revocation.ts';
import { signInAs, type Tokens } from './sign-in-flow.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async () => {
  server = await startServer({ port: 0, delayMs: 0, distDir: null });
  return server;
};
const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});
/** The status of the member's profile read with these tokens: 200 or 204 while they hold, 401 once they do not. */
const profile = (on: RunningServer, tokens: Tokens) =>
  fetch(`${on.url}/api/user/profile/myprofile`, { headers: { authorization: tokens.authorization } }).then((r) => r.status);
const revoke = (on: RunningServer, token: string, hint?: string) =>
  fetch(`${on.url}/oidc/token/revocation`, form({ token, client_id: 'circle-web', ...(hint ? { token_type_hint: hint } : {}) }));
const renew = (on: RunningServer, tokens: Tokens) =>
  fetch(`${on.url}/oidc/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken!, client_id: 'circle-web' }));

describe('revoking', () => {
  it('an access token: 200, and the API refuses it (401) while the member’s other tokens hold', async () => {
    const on = await start();
    const [first, second] = [await signInAs(on.url, 'ada'), await signInAs(on.url, 'ada')];
    expect(await profile(on, first)).toBe(204);
    const answer = await revoke(on, first.accessToken, 'access_token');
    expect(answer.status).toBe(200);
    const refused = await fetch(`${on.url}/api/user/profile/myprofile`, { headers: { authorization: first.authorization } });
    expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([
      401,
      'Bearer realm="circle", error="invalid_token", error_description="The access token has been revoked: sign in again"',
    ]);
    expect(await profile(on, second)).toBe(204);
  });

  it('another client’s access token is not revoked by this one (the client_id must be the token’s)', async () => {
    const on = await start();
    const tokens = await signInAs(on.url, 'ada');
    const answer = await fetch(`${on.url}/oidc/token/revocation`, form({ token: tokens.accessToken, client_id: 'someone-else' }));
    expect(answer.status).not.toBe(200);
    expect(await profile(on, tokens)).toBe(204);
  });

  it('the refresh token (as the app signs out) ends its access tokens too, and the renewal; another sign-in holds', async () => {
    const on = await start();
    const [signedOut, other] = [await signInAs(on.url, 'grace'), await signInAs(on.url, 'grace')];
    expect((await revoke(on, signedOut.refreshToken!)).status).toBe(200);
    expect(await profile(on, signedOut)).toBe(401);
    expect((await renew(on, signedOut)).status).toBe(400);
    expect(await profile(on, other)).toBe(204);
    expect((await renew(on, other)).status).toBe(200);
  });
});

describe('signing out everywhere', () => {
  it('ends every session of the member: every access token refused, every renewal too; other members and a new sign-in hold', async () => {
    const on = await start();
    const [here, elsewhere, linus] = [await signInAs(on.url, 'ada'), await signInAs(on.url, 'ada'), await signInAs(on.url, 'linus')];
    const answer = await fetch(`${on.url}${SIGN_OUT_EVERYWHERE_PATH}`, { method: 'POST', headers: { authorization: here.authorization } });
    expect([answer.status, answer.headers.get('cache-control')]).toEqual([204, 'no-store']);
    expect([await profile(on, here), await profile(on, elsewhere)]).toEqual([401, 401]);
    expect([(await renew(on, here)).status, (await renew(on, elsewhere)).status]).toEqual([400, 400]);
    expect(await profile(on, linus)).toBe(204);
    expect(await profile(on, await signInAs(on.url, 'ada'))).toBe(204);
  });

  it('needs the member’s own live access token (401 without one or with a revoked one) and a POST', async () => {
    const on = await start();
    const tokens = await signInAs(on.url, 'ada');
    const without = await fetch(`${on.url}${SIGN_OUT_EVERYWHERE_PATH}`, { method: 'POST' });
    expect([without.status, without.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="circle", error="invalid_token"']);
    expect((await fetch(`${on.url}${SIGN_OUT_EVERYWHERE_PATH}`, { headers: { authorization: tokens.authorization } })).status).toBe(405);
    await revoke(on, tokens.accessToken);
    const revoked = await fetch(`${on.url}${SIGN_OUT_EVERYWHERE_PATH}`, {
      method: 'POST',
      headers: { authorization: tokens.authorization },
    });
    expect(revoked.status).toBe(401);
    expect((await renew(on, tokens)).status).toBe(200);
  });
});

describe('a refresh token', () => {
  /** A renewal sent to this server under another Host: the provider of that origin answers it. */
  const renewAt = (on: RunningServer, host: string, tokens: Tokens) =>
    new Promise<number>((done, fail) => {
      const body = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refreshToken!,
        client_id: 'circle-web',
      }).toString();
      const port = Number(new URL(on.url).port);
      request(
        {
          host: '127.0.0.1',
          port,
          path: '/oidc/token',
          method: 'POST',
          headers: {
            host: `${host}:${port}`,
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0));
        },
      )
        .on('error', fail)
        .end(body);
    });

  it('is good only at the issuer that issued it, not at the provider of another name of the same server', async () => {
    const on = await start();
    const tokens = await signInAs(on.url, 'ada');
    expect(await renewAt(on, 'localhost', tokens)).toBe(400);
    expect(await renewAt(on, 'app.localhost', tokens)).toBe(400);
    expect(await renewAt(on, '127.0.0.1', tokens)).toBe(200);
  });
});
