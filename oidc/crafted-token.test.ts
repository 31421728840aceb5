// @vitest-environment node
/**
 * The access tokens the provider never issues, made with its key: one without changes is an issued
 * token's twin and the API takes it; each change the API must refuse is refused for its own reason.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/index.ts';
import { serverPerTest } from './provider.test-support.ts';
import { signInAs } from './sign-in-flow.ts';

const start = serverPerTest();

/** The status of the member's profile read with this token, and the challenge of a refusal. */
const profileWith = async (on: RunningServer, token: string) => {
  const answer = await fetch(`${on.url}/api/user/profile/myprofile`, { headers: { authorization: `Bearer ${token}` } });
  return [answer.status, answer.headers.get('www-authenticate')];
};
const refused = (reason: string) => [401, `Bearer realm="circle", error="invalid_token", error_description="${reason}"`];

describe('a crafted access token', () => {
  it('unchanged, is an issued one’s twin (the same header and claims but its own ids and times), and the API takes it', async () => {
    const on = await start();
    const issued = (await signInAs(on.url, 'ada')).accessToken;
    const crafted = await on.identityProvider.craftAccessToken(on.url, 'ada');
    expect(decodeProtectedHeader(crafted)).toEqual(decodeProtectedHeader(issued));
    const { jti, gid: _grant, iat, exp, ...claims } = decodeJwt(issued);
    const { jti: craftedJti, iat: craftedIat, exp: craftedExp, ...craftedClaims } = decodeJwt(crafted);
    expect(craftedClaims).toEqual(claims);
    expect(craftedJti).toEqual(expect.any(String));
    expect(craftedJti).not.toBe(jti);
    expect(craftedExp! - craftedIat!).toBe(exp! - iat!);
    expect(await profileWith(on, crafted)).toEqual([204, null]);
  });

  it('is made for the origin and member given, with the provider’s lifetime', async () => {
    const on = await start({ accessTokenTtl: 42 });
    const origin = on.url.replace('127.0.0.1', 'localhost');
    const claims = decodeJwt(await on.identityProvider.craftAccessToken(origin, 'grace'));
    expect(claims).toMatchObject({ iss: `${origin}/oidc`, aud: `${origin}/api`, sub: 'grace', roles: ['member'] });
    expect(claims.exp! - claims.iat!).toBe(42);
    expect(claims.iat).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 1);
  });

  it('only for an origin the server answers on', async () => {
    const on = await start();
    await expect(on.identityProvider.craftAccessToken('http://elsewhere.invalid:1', 'grace')).rejects.toThrow(
      'No provider answers on http://elsewhere.invalid:1',
    );
  });

  it('with its changes: claims put in place, those given as undefined left out; the API refuses each for its reason', async () => {
    const on = await start();
    const now = Math.floor(Date.now() / 1000);
    const expired = await on.identityProvider.craftAccessToken(on.url, 'grace', { iat: now - 600, exp: now - 300 });
    const elsewhere = await on.identityProvider.craftAccessToken(on.url, 'grace', { aud: 'https://another-api.invalid' });
    const nobody = await on.identityProvider.craftAccessToken(on.url, 'grace', { sub: undefined });
    expect(decodeJwt(expired)).toMatchObject({ iat: now - 600, exp: now - 300 });
    expect(decodeJwt(elsewhere).aud).toBe('https://another-api.invalid');
    expect(Object.keys(decodeJwt(nobody))).not.toContain('sub');
    expect(await profileWith(on, expired)).toEqual(refused('The access token has expired: renew it'));
    expect(await profileWith(on, elsewhere)).toEqual(refused('The access token is not for this API'));
    expect(await profileWith(on, nobody)).toEqual(refused('The access token names no member'));
  });
});
