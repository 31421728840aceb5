import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../mocks/server.ts';
import { PROFILE_FIELDS } from './support/samples.ts';

let server: RunningServer;
let api: string;

beforeAll(async () => {
  server = await startServer({ port: 0, delayMs: 0, distDir: null });
  api = `${server.url}/api`;
});
afterAll(() => server?.close());

const json = (method: string, body: unknown, key?: string): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
  body: JSON.stringify(body),
});

describe('Idempotency-Key on profile saves (the mock)', () => {
  it('a create sent again with its key answers the first 201 and creates nothing more; without it, 409', async () => {
    await fetch(`${api}/commands/reset`, { method: 'POST' });
    const first = await fetch(`${api}/user/profile`, json('POST', PROFILE_FIELDS, 'save-1'));
    expect(first.status).toBe(201);
    const created = await first.json();
    const again = await fetch(`${api}/user/profile`, json('POST', PROFILE_FIELDS, 'save-1'));
    expect(again.status).toBe(201);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await again.json()).toEqual(created);
    expect((await fetch(`${api}/user/profile`, json('POST', PROFILE_FIELDS))).status).toBe(409);
    expect((await fetch(`${api}/user/profile`, json('POST', PROFILE_FIELDS, 'save-2'))).status).toBe(409);
  });

  it('an update sent again with its key answers the first 200 and does not apply twice', async () => {
    await fetch(`${api}/commands/reset`, { method: 'POST' });
    const { id } = await (await fetch(`${api}/user/profile`, json('POST', PROFILE_FIELDS))).json();
    const first = await (await fetch(`${api}/user/profile/${id}`, json('PATCH', { bio: 'First' }, 'edit-1'))).json();
    await fetch(`${api}/user/profile/${id}`, json('PATCH', { bio: 'Second' }, 'edit-2'));
    const replayed = await fetch(`${api}/user/profile/${id}`, json('PATCH', { bio: 'First' }, 'edit-1'));
    expect(replayed.status).toBe(200);
    expect(await replayed.json()).toEqual(first);
    // The replay changed nothing: the later edit stands.
    expect((await (await fetch(`${api}/user/profile/myprofile`)).json()).bio).toBe('Second');
  });

  it('a key of a profile since deleted is a new save; a malformed key is refused', async () => {
    await fetch(`${api}/commands/reset`, { method: 'POST' });
    const { id } = await (await fetch(`${api}/user/profile`, json('POST', PROFILE_FIELDS, 'save-3'))).json();
    await fetch(`${api}/user/profile/${id}`, { method: 'DELETE' });
    const recreated = await fetch(`${api}/user/profile`, json('POST', PROFILE_FIELDS, 'save-3'));
    expect(recreated.status).toBe(201);
    expect((await recreated.json()).id).not.toBe(id);
    const bad = await fetch(`${api}/user/profile`, json('POST', PROFILE_FIELDS, 'x'.repeat(129)));
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain('Idempotency-Key');
  });
});
