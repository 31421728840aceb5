/**
 * The profile is the signed-in member's: the Node mock server with its embedded provider, real
 * access tokens (signInAs walks the code + PKCE flow), strict mode on so that every answer here,
 * the refusals included, is judged against openapi.yaml as it leaves.
 *
 * - Without a valid bearer token every profile operation answers 401 with a challenge, and the
 *   open operations (collections) do not ask for one.
 * - One member can never read, change or delete another's profile or avatar (403), and never
 *   sees it as theirs (myprofile).
 * - A change needs If-Match: 428 without it, 412 (with the current ETag) when stale; `*` and
 *   strong comparison as the document states.
 * - Another site's page, holding only the browser's cookies, cannot change anything (403).
 * - Writing the shared collections needs an admin (ada): a member's token answers 403.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/index.ts';
import { makePng } from '../openapi-kit/node.ts';
import { SAMPLE_PROFILE } from '../testkit/index.ts';
import { signInAs } from './support/sign-in.ts';

type Member = 'ada' | 'grace';
let server: RunningServer;
let api: string;
const bearer: Record<Member, string> = { ada: '', grace: '' };
const PNG = makePng();

beforeAll(async () => {
  server = await startServer({ port: 0, delayMs: 0, distDir: null, strict: true });
  api = `${server.url}/api`;
  for (const member of ['ada', 'grace'] as const) bearer[member] = (await signInAs(server.url, member)).authorization;
});
afterAll(() => server?.close());
beforeEach(async () => {
  // The mock's own reset: the API's command is an admin's, and these tests are about members.
  expect((await fetch(`${server.url}/__mock/reset`, { method: 'POST' })).status).toBe(204);
});
afterEach(() => {
  expect(server.exchanges().violations, 'answers that break openapi.yaml').toEqual([]);
});

interface Call {
  as?: Member | null;
  headers?: Record<string, string>;
  body?: unknown;
}
/** One API request as `as` (null: no Authorization at all). */
function call(method: string, path: string, { as = 'ada', headers = {}, body }: Call = {}): Promise<Response> {
  const h: Record<string, string> = { ...headers };
  if (as) h.authorization = bearer[as];
  if (body instanceof FormData) return fetch(`${api}${path}`, { method, headers: h, body });
  if (body !== undefined) h['content-type'] = 'application/json';
  return fetch(`${api}${path}`, { method, headers: h, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

/** `member` creates their profile, with an avatar: its id and ETag. */
async function createAs(member: Member): Promise<{ id: string; etag: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(SAMPLE_PROFILE)) form.set(name, Array.isArray(value) ? value.join(',') : String(value));
  form.set('username', `${member}_profile`);
  form.set('avatar', new Blob([PNG], { type: 'image/png' }), 'me.png');
  const answer = await call('POST', '/user/profile', { as: member, body: form });
  expect(answer.status).toBe(201);
  const etag = answer.headers.get('etag');
  expect(etag).toMatch(/^"[^"]+"$/);
  return { id: ((await answer.json()) as { id: string }).id, etag: etag! };
}

const errorOf = async (answer: Response) => (await answer.json()) as { status: number; error: string; message: string };

describe('credentials', () => {
  it('every profile operation answers 401 with a Bearer challenge without a token, and changes nothing', async () => {
    const { id, etag } = await createAs('ada');
    const calls: Array<[string, string, Call]> = [
      ['GET', '/user/profile/myprofile', {}],
      ['POST', '/user/profile', { body: SAMPLE_PROFILE }],
      ['PATCH', `/user/profile/${id}`, { body: { bio: 'Anonymous' }, headers: { 'if-match': etag } }],
      ['DELETE', `/user/profile/${id}`, { headers: { 'if-match': etag } }],
      ['GET', `/user/profile/${id}/avatar`, {}],
    ];
    for (const [method, path, init] of calls) {
      const answer = await call(method, path, { ...init, as: null });
      expect([method, path, answer.status]).toEqual([method, path, 401]);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer realm="circle"/);
      expect(await errorOf(answer)).toEqual({
        status: 401,
        error: 'Unauthorized',
        message: 'Sign in: this operation needs a bearer access token',
      });
    }
    const mine = await call('GET', '/user/profile/myprofile');
    expect([mine.status, mine.headers.get('etag')]).toEqual([200, etag]);
  });

  it("a token that is not the provider's, or not a bearer token, answers 401 naming the problem (RFC 6750 error)", async () => {
    const forged = `${bearer.ada.slice(0, -8)}AAAAAAAA`;
    const wrong = await call('GET', '/user/profile/myprofile', { as: null, headers: { authorization: forged } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const basic = await call('GET', '/user/profile/myprofile', { as: null, headers: { authorization: 'Basic YWRhOmNpcmNsZQ==' } });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toContain('error="invalid_request"');
  });

  it('the open operations need no token; writing a shared collection needs an admin (401 without a token, 403 for a member)', async () => {
    expect((await call('GET', '/symbols', { as: null })).status).toBe(200);
    const subscription = { endpoint: 'https://push.example.org/send/open', keys: { p256dh: 'key', auth: 'secret' } };
    expect((await call('POST', '/subscription', { as: null, body: subscription })).status).toBe(201);
    const notification = { title: 'Hi', body: 'Shared.', level: 'info', read: false, createdAt: '2026-11-20T10:00:00Z' };
    expect((await call('POST', '/notifications', { as: null, body: notification })).status).toBe(401);
    const member = await call('POST', '/notifications', { as: 'grace', body: notification });
    expect([member.status, await errorOf(member)]).toEqual([
      403,
      { status: 403, error: 'Forbidden', message: 'This operation needs the admin role' },
    ]);
    expect((await call('POST', '/notifications', { as: 'ada', body: notification })).status).toBe(201);
  });
});

describe('two members', () => {
  it('each reads their own profile: grace has none while ada has one, then each has their own', async () => {
    const ada = await createAs('ada');
    expect((await call('GET', '/user/profile/myprofile', { as: 'grace' })).status).toBe(204);
    const grace = await createAs('grace');
    expect(grace.id).not.toBe(ada.id);
    const mine = async (member: Member) =>
      (await (await call('GET', '/user/profile/myprofile', { as: member })).json()) as { id: string; username: string };
    expect(await mine('ada')).toMatchObject({ id: ada.id, username: 'ada_profile' });
    expect(await mine('grace')).toMatchObject({ id: grace.id, username: 'grace_profile' });
  });

  it("one member can never change, delete or read the avatar of another's profile: 403, and it stays as it was", async () => {
    const ada = await createAs('ada');
    const forbidden = `Profile '${ada.id}' belongs to another member`;
    // Even with the right ETag, or `*`, and even repeating an Idempotency-Key.
    for (const ifMatch of [ada.etag, '*']) {
      const patch = await call('PATCH', `/user/profile/${ada.id}`, {
        as: 'grace',
        body: { bio: 'Grace was here' },
        headers: { 'if-match': ifMatch, 'idempotency-key': 'k-1' },
      });
      expect(patch.status).toBe(403);
      expect(await errorOf(patch)).toEqual({ status: 403, error: 'Forbidden', message: forbidden });
      const remove = await call('DELETE', `/user/profile/${ada.id}`, { as: 'grace', headers: { 'if-match': ifMatch } });
      expect(remove.status).toBe(403);
      expect((await errorOf(remove)).message).toBe(forbidden);
    }
    const avatar = await call('GET', `/user/profile/${ada.id}/avatar`, { as: 'grace' });
    expect(avatar.status).toBe(403);
    expect(avatar.headers.get('content-type')).toBe('application/json');
    // A multipart update with a new avatar is refused as well, before its body is read.
    const form = new FormData();
    form.set('avatar', new Blob([PNG], { type: 'image/png' }), 'x.png');
    expect((await call('PATCH', `/user/profile/${ada.id}`, { as: 'grace', body: form, headers: { 'if-match': '*' } })).status).toBe(403);

    const still = await call('GET', '/user/profile/myprofile');
    expect(still.headers.get('etag')).toBe(ada.etag);
    expect(((await still.json()) as { bio?: string }).bio).toBe(SAMPLE_PROFILE.bio);
    const own = await call('GET', `/user/profile/${ada.id}/avatar`);
    expect(own.status).toBe(200);
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(PNG);
    // grace's own create is not blocked by ada's profile, and ada's id is unknown to nobody: 404 is for ids that do not exist.
    expect((await call('DELETE', '/user/profile/no-such-id', { as: 'grace', headers: { 'if-match': '*' } })).status).toBe(404);
  });
});

describe('If-Match', () => {
  it('a change without If-Match answers 428 and changes nothing', async () => {
    const { id, etag } = await createAs('ada');
    const patch = await call('PATCH', `/user/profile/${id}`, { body: { bio: 'No precondition' } });
    expect(patch.status).toBe(428);
    expect(await errorOf(patch)).toEqual({
      status: 428,
      error: 'Precondition Required',
      message: "Send If-Match with the profile's ETag (from its last read) to change it",
    });
    expect((await call('DELETE', `/user/profile/${id}`)).status).toBe(428);
    expect((await call('GET', '/user/profile/myprofile')).headers.get('etag')).toBe(etag);
  });

  it('a stale ETag answers 412 with the current one, which then goes through; each change gives a new ETag', async () => {
    const { id, etag: first } = await createAs('ada');
    // Another device of ada's changes the profile.
    const other = await call('PATCH', `/user/profile/${id}`, { body: { bio: 'From the phone' }, headers: { 'if-match': first } });
    expect(other.status).toBe(200);
    const second = other.headers.get('etag')!;
    expect(second).not.toBe(first);
    expect((await call('GET', '/user/profile/myprofile')).headers.get('etag')).toBe(second);

    const stale = await call('PATCH', `/user/profile/${id}`, { body: { bio: 'From the laptop' }, headers: { 'if-match': first } });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('etag')).toBe(second);
    expect((await errorOf(stale)).error).toBe('Precondition Failed');
    expect((await call('DELETE', `/user/profile/${id}`, { headers: { 'if-match': first } })).status).toBe(412);
    expect(((await (await call('GET', '/user/profile/myprofile')).json()) as { bio: string }).bio).toBe('From the phone');

    const retried = await call('PATCH', `/user/profile/${id}`, {
      body: { bio: 'From the laptop' },
      headers: { 'if-match': stale.headers.get('etag')! },
    });
    expect(retried.status).toBe(200);
    expect((await call('DELETE', `/user/profile/${id}`, { headers: { 'if-match': retried.headers.get('etag')! } })).status).toBe(204);
    expect((await call('GET', '/user/profile/myprofile')).status).toBe(204);
  });

  it('compares strongly: a weak tag never matches, a list matches when one of its tags is current, * matches any profile', async () => {
    const { id, etag } = await createAs('ada');
    expect((await call('PATCH', `/user/profile/${id}`, { body: { bio: 'weak' }, headers: { 'if-match': `W/${etag}` } })).status).toBe(412);
    expect((await call('PATCH', `/user/profile/${id}`, { body: { bio: 'garbage' }, headers: { 'if-match': 'not a tag' } })).status).toBe(
      412,
    );
    const listed = await call('PATCH', `/user/profile/${id}`, { body: { bio: 'listed' }, headers: { 'if-match': `"nope.1", ${etag}` } });
    expect(listed.status).toBe(200);
    const any = await call('PATCH', `/user/profile/${id}`, { body: { bio: 'any' }, headers: { 'if-match': '*' } });
    expect(any.status).toBe(200);
    expect((await call('DELETE', `/user/profile/${id}`, { headers: { 'if-match': '*' } })).status).toBe(204);
  });

  it('the precondition is judged before the body: a stale change with an invalid body is 412, a current one 400', async () => {
    const { id, etag } = await createAs('ada');
    expect((await call('PATCH', `/user/profile/${id}`, { body: { nickname: 'x' }, headers: { 'if-match': '"stale.9"' } })).status).toBe(
      412,
    );
    expect((await call('PATCH', `/user/profile/${id}`, { body: { nickname: 'x' }, headers: { 'if-match': etag } })).status).toBe(400);
  });
});

describe('cross-site requests', () => {
  it('a page of another site, with only the cookies a browser sends by itself, changes nothing', async () => {
    const { id, etag } = await createAs('ada');
    // What a form or fetch from https://evil.example can make the browser send: its Origin, the
    // site's cookies (an XSRF cookie included, even echoed), but never the Authorization header.
    const crossSite = {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
      cookie: 'XSRF-TOKEN=abc; session=ada',
      'x-xsrf-token': 'abc',
      'if-match': etag,
    };
    const attempts: Array<[string, string, unknown]> = [
      ['PATCH', `/user/profile/${id}`, { bio: 'Pwned' }],
      ['DELETE', `/user/profile/${id}`, undefined],
      ['POST', '/user/profile', SAMPLE_PROFILE],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await call(method, path, { as: null, headers: crossSite, body });
      expect([method, answer.status]).toEqual([method, 403]);
      expect((await errorOf(answer)).message).toBe(
        'Refused: a request from another site (Sec-Fetch-Site cross-site) without a bearer token cannot change anything',
      );
      // No CORS grant either: the page could not even read the refusal.
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
    const still = await call('GET', '/user/profile/myprofile');
    expect([still.status, still.headers.get('etag')]).toEqual([200, etag]);
  });
});
