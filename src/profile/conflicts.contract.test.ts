// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { getResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import specText from '../../openapi.yaml?raw';
import { createContract, type OpenApiDocument } from '../../mock-api/index.ts';
import { createMockBackend, type MockBackend } from '../../mock-api/index.ts';
import { testAuthenticate } from '../../testkit/index.ts';
import { configureApi } from '../api/instance';
import { differingFields, mergedFields, resetProfileConflict, suggestedChoice } from './conflict-compare';
import { resolveProfileConflict } from './conflict-resolve';
import { profileConflict } from './conflict-state';
import { draftKey } from './draft';
import { pendingProfileSave, resetProfileOutbox, sendQueuedSave } from './outbox';
import { fetchProfile, resetProfileState } from './store';
import { deleteProfile, saveProfile } from './save';
import { profileState } from './store';
import { setTokenKeeper } from '../api/credentials';
import { clearPendingSave, readPendingSave } from './pending-save';
import type { Profile, ProfileInput } from './requests';
import { setConnectivity } from '../lib/connectivity';

/*
 * The app's profile model (src/profile) over the real API stack and the mock backend itself, in
 * process, in a simulated browser: the mock's ETags and If-Match checks are the reference
 * semantics of the API. "Another device" is the same member changing the profile straight through
 * the API meanwhile.
 */

const ORIGIN = 'http://localhost:3000';
const INPUT: ProfileInput = {
  displayName: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.org',
  bio: 'Analyst.',
  interests: ['maths'],
  language: 'en',
};

let backend: MockBackend;
/** Every request the app sent, with the If-Match it named. */
let sent: { method: string; path: string; ifMatch: string | null; body: string }[];

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`${ORIGIN}/api${path}`, {
    method,
    headers: { authorization: 'Bearer test-ada', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await getResponse(backend.handlers, request)) ?? new Response(null, { status: 404 });
}

/** The member's other device: reads the profile (and its ETag) and changes it. */
async function otherDevice(fields: Partial<ProfileInput>): Promise<Profile> {
  const read = await call('GET', '/user/profile/myprofile');
  const { id } = (await read.json()) as Profile;
  const answer = await call('PATCH', `/user/profile/${id}`, fields, { 'if-match': read.headers.get('etag')! });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Profile;
}

async function serverProfile(): Promise<Profile> {
  return (await (await call('GET', '/user/profile/myprofile')).json()) as Profile;
}

beforeEach(async () => {
  backend = await createMockBackend({
    contract: createContract(parse(specText) as OpenApiDocument),
    delayMs: 0,
    authenticate: testAuthenticate,
  });
  sent = [];
  // Without XMLHttpRequest the progress transport streams through fetch: one fake network for all.
  vi.stubGlobal('XMLHttpRequest', undefined);
  vi.stubGlobal('fetch', async (input: Request) => {
    const request = new Request(input);
    const path = new URL(request.url).pathname.replace(/^\/api/, '');
    if (request.method !== 'GET')
      sent.push({ method: request.method, path, ifMatch: request.headers.get('if-match'), body: await request.clone().text() });
    return (await getResponse(backend.handlers, request)) ?? new Response(null, { status: 404 });
  });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  setTokenKeeper({ accessToken: async () => 'test-ada' });
  configureApi('/api/');
  resetProfileState();
  resetProfileConflict();
  resetProfileOutbox();
  localStorage.clear();
  expect((await call('POST', '/user/profile', INPUT)).status).toBe(201);
});

afterEach(async () => {
  setConnectivity(true);
  await clearPendingSave();
  vi.unstubAllGlobals();
});

/** The fields the form sends: every one, as typed. */
const edit = (changes: Partial<ProfileInput>) => ({ ...INPUT, ...changes });

describe('the ETag the profile was read with', () => {
  it('is kept from the read, named by the update, and replaced by the answer', async () => {
    const read = await fetchProfile();
    const first = profileState.value.etag;
    expect(first).toMatch(/^".+"$/);
    await expect(saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'One' }) }, null)).resolves.toBe('saved');
    expect(sent.at(-1)).toMatchObject({ method: 'PATCH', ifMatch: first });
    const second = profileState.value.etag;
    expect(second).not.toBe(first);
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Two' }) }, null);
    expect(sent.at(-1)?.ifMatch).toBe(second);
    expect((await serverProfile()).bio).toBe('Two');
  });

  it('is kept from a create and named by the delete; none is left after it', async () => {
    await call('DELETE', `/user/profile/${(await serverProfile()).id}`, undefined, { 'if-match': '*' });
    await saveProfile({ kind: 'create', fields: INPUT }, null);
    const etag = profileState.value.etag;
    expect(etag).toMatch(/^".+"$/);
    await expect(deleteProfile(profileState.value.profile!.id)).resolves.toBe('deleted');
    expect(sent.at(-1)).toMatchObject({ method: 'DELETE', ifMatch: etag });
    expect(profileState.value).toMatchObject({ profile: null, etag: null });
  });

  it('never sends If-Match *', async () => {
    const read = await fetchProfile();
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'x' }) }, null);
    await deleteProfile(read!.id);
    expect(sent.filter((s) => s.ifMatch === '*')).toEqual([]);
  });
});

describe('a save the profile changed under (412)', () => {
  it('overwrites nothing, keeps the draft, and puts the server version and its ETag before the member', async () => {
    const read = await fetchProfile();
    localStorage.setItem(draftKey(read!.id), JSON.stringify({ bio: 'Mine' }));
    const theirs = await otherDevice({ displayName: 'Countess Ada' });

    await expect(saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Mine' }) }, null)).resolves.toBe('conflict');
    expect((await serverProfile()).bio).toBe('Analyst.');
    expect(localStorage.getItem(draftKey(read!.id))).not.toBeNull();
    const conflict = profileConflict.value!;
    expect(conflict.theirs).toEqual(theirs);
    expect(conflict.etag).not.toBe(sent[0]?.ifMatch);
    expect(conflict.mine.bio).toBe('Mine');
    // Mine left the name as it was, theirs changed it; mine changed the bio: both differ.
    expect(conflict.fields).toEqual(['displayName', 'bio']);
    expect(suggestedChoice(conflict)).toMatchObject({ displayName: 'theirs', bio: 'mine' });
    expect(profileState.value.error).toBeNull();
  });

  it('is kept on the device, marked, so a reload finds the conflict again without sending anything', async () => {
    const read = await fetchProfile();
    await otherDevice({ displayName: 'Countess Ada' });
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Mine' }) }, null);
    expect(await readPendingSave()).toMatchObject({ kind: 'update', conflict: true, fields: { bio: 'Mine' }, base: { bio: 'Analyst.' } });
    expect(profileConflict.value?.queued).toBe(true);

    resetProfileConflict();
    const before = sent.length;
    await expect(sendQueuedSave()).resolves.toBe('conflict');
    expect(sent).toHaveLength(before);
    expect(profileConflict.value).toMatchObject({ fields: ['displayName', 'bio'], mine: { bio: 'Mine' } });

    await expect(resolveProfileConflict({ kind: 'mine' })).resolves.toBe('saved');
    expect(await readPendingSave()).toBeNull();
    expect(pendingProfileSave.value).toBeNull();
  });

  it('"keep mine" sends the fields I changed, over the server version\'s ETag: a field I never touched keeps what the other device saved', async () => {
    const read = await fetchProfile();
    await otherDevice({ displayName: 'Countess Ada' });
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Mine' }) }, null);
    const { etag } = profileConflict.value!;

    await expect(resolveProfileConflict({ kind: 'mine' })).resolves.toBe('saved');
    expect(sent.at(-1)).toMatchObject({ method: 'PATCH', ifMatch: etag });
    expect(await serverProfile()).toMatchObject({ displayName: 'Countess Ada', bio: 'Mine' });
    expect(profileConflict.value).toBeNull();
    expect(profileState.value.profile).toMatchObject({ displayName: 'Countess Ada', bio: 'Mine' });
  });

  it('"keep mine" where both devices changed the same field: mine wins there', async () => {
    const read = await fetchProfile();
    await otherDevice({ displayName: 'Countess Ada', bio: 'Theirs' });
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Mine' }) }, null);
    await expect(resolveProfileConflict({ kind: 'mine' })).resolves.toBe('saved');
    expect(await serverProfile()).toMatchObject({ displayName: 'Countess Ada', bio: 'Mine' });
  });

  it('"take theirs" drops the edit and its draft, sends nothing, and shows the server version', async () => {
    const read = await fetchProfile();
    localStorage.setItem(draftKey(read!.id), JSON.stringify({ bio: 'Mine' }));
    const theirs = await otherDevice({ displayName: 'Countess Ada' });
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Mine' }) }, null);
    const before = sent.length;

    await expect(resolveProfileConflict({ kind: 'theirs' })).resolves.toBe('discarded');
    expect(sent).toHaveLength(before);
    expect(await serverProfile()).toEqual(theirs);
    expect(profileState.value.profile).toEqual(theirs);
    expect(profileState.value.etag).toMatch(/^".+"$/);
    expect(localStorage.getItem(draftKey(read!.id))).toBeNull();
    expect(profileConflict.value).toBeNull();
  });

  it('a merge keeps both edits: their name, my bio', async () => {
    const read = await fetchProfile();
    await otherDevice({ displayName: 'Countess Ada' });
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Mine' }) }, null);
    const conflict = profileConflict.value!;
    const choice = suggestedChoice(conflict);
    expect(mergedFields(conflict, choice)).toMatchObject({ displayName: 'Countess Ada', bio: 'Mine', username: 'ada' });

    await expect(resolveProfileConflict({ kind: 'merge', choice })).resolves.toBe('saved');
    expect(sent.at(-1)).toMatchObject({ method: 'PATCH', ifMatch: conflict.etag });
    expect(await serverProfile()).toMatchObject({ displayName: 'Countess Ada', bio: 'Mine' });
  });

  it('a merge takes each field from the side chosen for it', async () => {
    const read = await fetchProfile();
    await otherDevice({ displayName: 'Countess Ada', bio: 'Theirs' });
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Mine', interests: ['engines'] }) }, null);
    const conflict = profileConflict.value!;
    expect(conflict.fields).toEqual(['displayName', 'bio', 'interests']);
    await resolveProfileConflict({ kind: 'merge', choice: { ...suggestedChoice(conflict), displayName: 'mine', bio: 'theirs' } });
    expect(await serverProfile()).toMatchObject({ displayName: 'Ada Lovelace', bio: 'Theirs', interests: ['engines'] });
  });

  it('another change while the member chooses opens a new conflict instead of overwriting it', async () => {
    const read = await fetchProfile();
    await otherDevice({ displayName: 'Countess Ada' });
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Mine' }) }, null);
    const first = profileConflict.value!;
    await otherDevice({ email: 'countess@example.org' });

    await expect(resolveProfileConflict({ kind: 'mine' })).resolves.toBe('conflict');
    expect(profileConflict.value).not.toBe(first);
    expect(profileConflict.value?.theirs.email).toBe('countess@example.org');
    expect((await serverProfile()).bio).toBe('Analyst.');
  });
});

describe('comparing the versions', () => {
  it('a field the edit leaves out is not in conflict; interests compare as lists', () => {
    expect(differingFields({ bio: 'a', interests: ['x', 'y'] }, { ...INPUT, bio: 'b', interests: ['x', 'y'] })).toEqual(['bio']);
  });

  it('without the base, every differing field starts as mine', () => {
    const conflict = { fields: ['bio', 'email'] as const, mine: { bio: 'a', email: 'a@x.org' }, base: null };
    expect(suggestedChoice({ ...conflict, fields: [...conflict.fields] })).toMatchObject({ bio: 'mine', email: 'mine' });
  });
});

describe('a delete the profile changed under (412)', () => {
  it('deletes nothing, shows the current version, and the next confirmation names its ETag', async () => {
    const read = await fetchProfile();
    const theirs = await otherDevice({ displayName: 'Countess Ada' });
    await expect(deleteProfile(read!.id)).resolves.toBe('changed');
    expect(await serverProfile()).toEqual(theirs);
    expect(profileState.value.profile).toEqual(theirs);
    await expect(deleteProfile(read!.id)).resolves.toBe('deleted');
    expect((await call('GET', '/user/profile/myprofile')).status).toBe(204);
  });
});

describe('a queued save the profile changed under', () => {
  it('is queued with the ETag and fields it was made on', async () => {
    const read = await fetchProfile();
    const etag = profileState.value.etag;
    setConnectivity(false);
    await expect(saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Offline' }) }, null)).resolves.toBe('queued');
    expect(await readPendingSave()).toMatchObject({ kind: 'update', ifMatch: etag, base: { bio: 'Analyst.' }, fields: { bio: 'Offline' } });
  });

  it('replayed unchanged elsewhere, it goes out with that If-Match', async () => {
    const read = await fetchProfile();
    const etag = profileState.value.etag;
    setConnectivity(false);
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Offline' }) }, null);
    setConnectivity(true);
    await expect(sendQueuedSave()).resolves.toBe('sent');
    expect(sent.at(-1)).toMatchObject({ method: 'PATCH', ifMatch: etag });
    expect((await serverProfile()).bio).toBe('Offline');
  });

  it('refused with 412, it stays marked as a conflict, is not sent again, and the member chooses', async () => {
    const read = await fetchProfile();
    setConnectivity(false);
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Offline' }) }, null);
    await otherDevice({ displayName: 'Countess Ada' });
    setConnectivity(true);

    await expect(sendQueuedSave()).resolves.toBe('conflict');
    expect(await readPendingSave()).toMatchObject({ conflict: true, fields: { bio: 'Offline' } });
    expect(pendingProfileSave.value).toMatchObject({ conflict: true });
    expect(profileConflict.value).toMatchObject({ queued: true, fields: ['displayName', 'bio'] });
    expect((await serverProfile()).bio).toBe('Analyst.');
    // Coming back (a reload, the next online event): the same conflict again, no request.
    resetProfileConflict();
    const before = sent.length;
    await expect(sendQueuedSave()).resolves.toBe('conflict');
    expect(sent).toHaveLength(before);
    expect(profileConflict.value?.queued).toBe(true);

    await expect(resolveProfileConflict({ kind: 'merge', choice: suggestedChoice(profileConflict.value!) })).resolves.toBe('saved');
    expect(await serverProfile()).toMatchObject({ displayName: 'Countess Ada', bio: 'Offline' });
    expect(await readPendingSave()).toBeNull();
    expect(pendingProfileSave.value).toBeNull();
  });

  it('kept when the server version cannot be read yet (signed out, 401), and shown once it can', async () => {
    const read = await fetchProfile();
    setConnectivity(false);
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Offline' }) }, null);
    await otherDevice({ displayName: 'Countess Ada' });
    setConnectivity(true);
    await expect(sendQueuedSave()).resolves.toBe('conflict');
    // A reload whose session is not back yet: reading theirs fails; it waits, nothing dropped.
    resetProfileConflict();
    setTokenKeeper({ accessToken: async () => 'expired' });
    await expect(sendQueuedSave()).resolves.toBe('offline');
    expect(await readPendingSave()).toMatchObject({ conflict: true, fields: { bio: 'Offline' } });
    expect(profileConflict.value).toBeNull();
    setTokenKeeper({ accessToken: async () => 'test-ada' });
    await expect(sendQueuedSave()).resolves.toBe('conflict');
    expect(profileConflict.value?.fields).toEqual(['displayName', 'bio']);
  });

  it('a save queued before the app kept ETags is a conflict, never sent blind', async () => {
    const read = await fetchProfile();
    setConnectivity(false);
    await saveProfile({ kind: 'update', id: read!.id, fields: edit({ bio: 'Old app' }) }, null);
    const { set, createStore } = await import('idb-keyval');
    const legacy = { ...(await readPendingSave()), ifMatch: undefined, base: undefined };
    await set('profile', legacy, createStore('circle', 'outbox'));
    setConnectivity(true);
    const before = sent.length;
    await expect(sendQueuedSave()).resolves.toBe('conflict');
    expect(sent).toHaveLength(before);
    expect(profileConflict.value).toMatchObject({ queued: true, fields: ['bio'] });
  });
});
