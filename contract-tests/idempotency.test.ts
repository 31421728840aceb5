import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/index.ts';
import { SAMPLE_PROFILE } from '../testkit/index.ts';
import { signInAs } from './support/sign-in.ts';

let server: RunningServer;
let api: string;
/** `Authorization` of each member: the profile operations are the signed-in member's. */
const as: Record<'ada' | 'grace', string> = { ada: '', grace: '' };

beforeAll(async () => {
  server = await startServer({ port: 0, delayMs: 0, distDir: null });
  api = `${server.url}/api`;
  as.ada = (await signInAs(server.url, 'ada')).authorization;
  as.grace = (await signInAs(server.url, 'grace')).authorization;
});
afterAll(() => server?.close());

interface Save {
  key?: string;
  ifMatch?: string;
  member?: keyof typeof as;
}
const json = (method: string, body: unknown, { key, ifMatch, member = 'ada' }: Save = {}): RequestInit => ({
  method,
  headers: {
    authorization: as[member],
    'content-type': 'application/json',
    ...(key ? { 'idempotency-key': key } : {}),
    ...(ifMatch ? { 'if-match': ifMatch } : {}),
  },
  body: JSON.stringify(body),
});
// The mock's own reset: the API's command needs an admin, and these tests are about members' saves.
const reset = () => fetch(`${server.url}/__mock/reset`, { method: 'POST' });
const create = async (save: Save = {}) => {
  const answer = await fetch(`${api}/user/profile`, json('POST', SAMPLE_PROFILE, save));
  expect(answer.status).toBe(201);
  return { id: ((await answer.json()) as { id: string }).id, etag: answer.headers.get('etag')! };
};

describe('Idempotency-Key on profile saves (the mock)', () => {
  it('a create sent again with its key answers the first 201 and creates nothing more; without it, 409', async () => {
    await reset();
    const first = await fetch(`${api}/user/profile`, json('POST', SAMPLE_PROFILE, { key: 'save-1' }));
    expect(first.status).toBe(201);
    const created = await first.json();
    const again = await fetch(`${api}/user/profile`, json('POST', SAMPLE_PROFILE, { key: 'save-1' }));
    expect(again.status).toBe(201);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await again.json()).toEqual(created);
    expect((await fetch(`${api}/user/profile`, json('POST', SAMPLE_PROFILE))).status).toBe(409);
    expect((await fetch(`${api}/user/profile`, json('POST', SAMPLE_PROFILE, { key: 'save-2' }))).status).toBe(409);
  });

  it('an update sent again with its key answers the first 200 (its ETag too) and does not apply twice', async () => {
    await reset();
    const { id, etag } = await create();
    const answer = await fetch(`${api}/user/profile/${id}`, json('PATCH', { bio: 'First' }, { key: 'edit-1', ifMatch: etag }));
    const first = await answer.json();
    const firstTag = answer.headers.get('etag')!;
    expect(firstTag).not.toBe(etag);
    const second = await fetch(`${api}/user/profile/${id}`, json('PATCH', { bio: 'Second' }, { key: 'edit-2', ifMatch: firstTag }));
    expect(second.status).toBe(200);
    // The replay carries the tag that was current when it was first sent: it is answered from the
    // first save before If-Match is compared, so it is no 412.
    const replayed = await fetch(`${api}/user/profile/${id}`, json('PATCH', { bio: 'First' }, { key: 'edit-1', ifMatch: etag }));
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('etag')).toBe(firstTag);
    expect(await replayed.json()).toEqual(first);
    // The replay changed nothing: the later edit stands.
    const now = await fetch(`${api}/user/profile/myprofile`, { headers: { authorization: as.ada } });
    expect((await now.json()).bio).toBe('Second');
    expect(now.headers.get('etag')).toBe(second.headers.get('etag'));
  });

  it("a key is the member's own: the same key from another member is another save", async () => {
    await reset();
    const ada = await create({ key: 'shared-key' });
    const grace = await fetch(`${api}/user/profile`, json('POST', SAMPLE_PROFILE, { key: 'shared-key', member: 'grace' }));
    expect(grace.status).toBe(201);
    expect(((await grace.json()) as { id: string }).id).not.toBe(ada.id);
    // And a key of ada's update, replayed by grace on ada's profile, is refused like any change of hers.
    await fetch(`${api}/user/profile/${ada.id}`, json('PATCH', { bio: 'Ada' }, { key: 'edit-a', ifMatch: ada.etag }));
    const stolen = await fetch(
      `${api}/user/profile/${ada.id}`,
      json('PATCH', { bio: 'Ada' }, { key: 'edit-a', ifMatch: '*', member: 'grace' }),
    );
    expect(stolen.status).toBe(403);
  });

  it('a key sent again with another body, or on another operation or profile, answers 422 and changes nothing', async () => {
    await reset();
    const created = await fetch(`${api}/user/profile`, json('POST', SAMPLE_PROFILE, { key: 'once' }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const etag = created.headers.get('etag')!;
    const refusal = {
      status: 422,
      error: 'Unprocessable Entity',
      message: 'This Idempotency-Key was already used for another save: send a fresh key with a new save',
    };
    // Another body on the same operation: the new create is not silently answered with the first one.
    const otherBody = await fetch(`${api}/user/profile`, json('POST', { ...SAMPLE_PROFILE, bio: 'Changed' }, { key: 'once' }));
    expect([otherBody.status, await otherBody.json()]).toEqual([422, refusal]);
    // Another operation: the create's key on an update.
    const otherOperation = await fetch(`${api}/user/profile/${id}`, json('PATCH', { bio: 'Edit' }, { key: 'once', ifMatch: etag }));
    expect([otherOperation.status, await otherOperation.json()]).toEqual([422, refusal]);
    // An update's key on the same profile with another body, and on another profile id.
    const edit = await fetch(`${api}/user/profile/${id}`, json('PATCH', { bio: 'Edit' }, { key: 'edit', ifMatch: etag }));
    expect(edit.status).toBe(200);
    const tag = edit.headers.get('etag')!;
    const otherEdit = await fetch(`${api}/user/profile/${id}`, json('PATCH', { bio: 'Other edit' }, { key: 'edit', ifMatch: tag }));
    expect([otherEdit.status, await otherEdit.json()]).toEqual([422, refusal]);
    const otherProfile = await fetch(`${api}/user/profile/p-elsewhere`, json('PATCH', { bio: 'Edit' }, { key: 'edit', ifMatch: '*' }));
    expect([otherProfile.status, await otherProfile.json()]).toEqual([422, refusal]);
    // Nothing changed: the profile is the first edit's, its tag too.
    const now = await fetch(`${api}/user/profile/myprofile`, { headers: { authorization: as.ada } });
    expect([((await now.json()) as { bio?: string }).bio, now.headers.get('etag')]).toEqual(['Edit', tag]);
  });

  it('the same save sent again reads the same: JSON in another order, a form with another boundary', async () => {
    await reset();
    const reordered = Object.fromEntries(Object.entries(SAMPLE_PROFILE).reverse());
    const first = await fetch(`${api}/user/profile`, json('POST', SAMPLE_PROFILE, { key: 'same' }));
    const again = await fetch(`${api}/user/profile`, json('POST', reordered, { key: 'same' }));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    const { id } = (await first.json()) as { id: string };
    const form = () => {
      const body = new FormData();
      body.set('bio', 'From a form');
      body.set(
        'avatar',
        new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], { type: 'image/png' }),
        'a.png',
      );
      return body;
    };
    const send = (ifMatch: string) =>
      fetch(`${api}/user/profile/${id}`, {
        method: 'PATCH',
        headers: { authorization: as.ada, 'idempotency-key': 'form-edit', 'if-match': ifMatch },
        body: form(),
      });
    const edited = await send(first.headers.get('etag')!);
    expect(edited.status).toBe(200);
    const replayed = await send('*');
    expect([replayed.status, replayed.headers.get('etag')]).toEqual([200, edited.headers.get('etag')]);
  });

  it('a key of a profile since deleted is a new save; a malformed key is refused', async () => {
    await reset();
    const { id, etag } = await create({ key: 'save-3' });
    expect(
      (await fetch(`${api}/user/profile/${id}`, { method: 'DELETE', headers: { authorization: as.ada, 'if-match': etag } })).status,
    ).toBe(204);
    const recreated = await fetch(`${api}/user/profile`, json('POST', SAMPLE_PROFILE, { key: 'save-3' }));
    expect(recreated.status).toBe(201);
    expect((await recreated.json()).id).not.toBe(id);
    expect(recreated.headers.get('etag')).not.toBe(etag);
    const bad = await fetch(`${api}/user/profile`, json('POST', SAMPLE_PROFILE, { key: 'x'.repeat(129) }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain('Idempotency-Key');
  });
});
