import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokenKeeper } from '../api/credentials';
import { configureApi } from '../api/instance';
import { clearPendingSave, readPendingSave } from './pending-save';
import type { Profile } from './requests';
import { setConnectivity } from '../lib/connectivity';
import { clearStateHistory, stateHistory } from '../state/history';
import { fetchProfile, resetProfileState } from './store';
import { profileState } from './store';
import { resetProfileConflict } from './conflict-compare';
import { profileConflict } from './conflict-state';
import { draftKey } from './draft';
import { deleteProfile, saveProfile, updateProfile } from './save';
import { pendingProfileSave, resetProfileOutbox } from './outbox';
import { PROFILE, PROFILE_INPUT } from '../test/profile-fixture';

/*
 * The changes of the profile over the real API stack; only the network is faked (without
 * XMLHttpRequest the progress transport streams through fetch), and the device's storage can be
 * made to refuse writes, as a full disk or a private window does.
 */

const storage = vi.hoisted(() => ({ full: false }));
vi.mock('./pending-save', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./pending-save')>();
  return {
    ...actual,
    writePendingSave: (save: Parameters<typeof actual.writePendingSave>[0]) =>
      storage.full ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) : actual.writePendingSave(save),
  };
});

const ORIGIN = 'http://localhost:3000';

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
const refusal = (status: number, message: string) => json({ status, error: 'Refused', message }, status);

/** What the server holds and how it answers a change; every request is kept. */
let requests: Request[];
function server(change: (request: Request) => Response | Promise<Response>, holds: Profile | null = PROFILE, etag = '"v1"') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const request = new Request(input);
      requests.push(request);
      if (request.method !== 'GET') return change(request);
      return holds ? json(holds, 200, { etag }) : new Response(null, { status: 204 });
    }),
  );
}
const methods = () => requests.map((r) => `${r.method} ${new URL(r.url).pathname}`);

/** The profile's steps as the state history names them, transfer progress left out. */
const steps = () =>
  stateHistory()
    .filter((change) => change.store === 'profile' && !change.action.startsWith('transfer:'))
    .map((change) => change.action);

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

beforeEach(async () => {
  setTokenKeeper({ accessToken: async () => 'tok-ada' });
  configureApi('/api/');
  resetProfileState();
  resetProfileOutbox();
  resetProfileConflict();
  storage.full = false;
  requests = [];
  vi.stubGlobal('XMLHttpRequest', undefined);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(async () => {
  storage.full = false;
  setConnectivity(true);
  resetProfileOutbox();
  resetProfileConflict();
  await clearPendingSave();
});

/** The member's profile as read from the server, with its ETag. */
async function held(profile = PROFILE, etag = '"v1"') {
  server(() => json(profile), profile, etag);
  await fetchProfile();
  requests = [];
}

describe('saveProfile', () => {
  it('a saved update clears the draft of that profile only', async () => {
    await held();
    localStorage.setItem(draftKey('p-1'), JSON.stringify({ bio: 'New' }));
    localStorage.setItem(draftKey(null), JSON.stringify({ displayName: 'Someone new' }));
    server(() => json({ ...PROFILE, bio: 'New' }, 200, { etag: '"v2"' }));
    await expect(saveProfile({ kind: 'update', id: 'p-1', fields: { bio: 'New' } }, null)).resolves.toBe('saved');
    expect(requests.map((r) => r.headers.get('if-match'))).toEqual(['"v1"']);
    expect(localStorage.getItem(draftKey('p-1'))).toBeNull();
    expect(localStorage.getItem(draftKey(null))).not.toBeNull();
  });

  it('offline, queues a new profile as it is, with no version named (there is none yet)', async () => {
    setConnectivity(false);
    await expect(saveProfile({ kind: 'create', fields: PROFILE_INPUT }, null)).resolves.toBe('queued');
    expect(await readPendingSave()).toStrictEqual({
      kind: 'create',
      fields: PROFILE_INPUT,
      avatar: null,
      apiBase: `${ORIGIN}/api/`,
      key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      queuedAt: expect.any(Number),
    });
  });

  it('offline with the device unable to keep it, rejects: the form keeps what was typed', async () => {
    setConnectivity(false);
    storage.full = true;
    await expect(saveProfile({ kind: 'create', fields: PROFILE_INPUT }, null)).rejects.toMatchObject({ name: 'QuotaExceededError' });
    expect(pendingProfileSave.value).toBeNull();
  });

  it("an update the server refuses (not 412) is thrown with the server's reason: no conflict, nothing queued", async () => {
    await held();
    server(() => refusal(422, 'username is taken'));
    await expect(saveProfile({ kind: 'update', id: 'p-1', fields: { username: 'taken' } }, null)).rejects.toMatchObject({
      name: 'ApiError',
      status: 422,
    });
    expect(profileConflict.value).toBeNull();
    expect(await readPendingSave()).toBeNull();
    expect(profileState.value.error).toBe('Backend returned code 422, with body username is taken');
  });

  it("a new profile refused with 412 is thrown with the server's reason: only an update has a version to conflict with", async () => {
    server(() => refusal(412, 'Precondition Failed'), null);
    await expect(saveProfile({ kind: 'create', fields: PROFILE_INPUT }, null)).rejects.toMatchObject({ name: 'ApiError', status: 412 });
    expect(methods()).toEqual(['POST /api/user/profile']);
    expect(profileConflict.value).toBeNull();
    expect(await readPendingSave()).toBeNull();
    expect(profileState.value.error).toBe('Backend returned code 412, with body Precondition Failed');
  });

  it('cancelled, is neither queued nor retried, and the profile is read again (the server may have taken it)', async () => {
    await held();
    const taken = { ...PROFILE, bio: 'New' };
    server(
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
        }),
      taken,
      '"v2"',
    );
    const controller = new AbortController();
    const saving = saveProfile({ kind: 'update', id: 'p-1', fields: { bio: 'New' } }, null, controller.signal);
    await until(() => requests.length === 1, 'the PATCH');
    controller.abort();
    await expect(saving).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => profileState.value.profile?.bio === 'New', 'the profile read again');
    expect(methods()).toEqual(['PATCH /api/user/profile/p-1', 'GET /api/user/profile/myprofile']);
    expect(profileState.value).toMatchObject({ profile: taken, etag: '"v2"', loading: false });
    expect(await readPendingSave()).toBeNull();
    expect(pendingProfileSave.value).toBeNull();
  });

  it('refused with 412 while the device cannot keep it, still puts the conflict before the member, marked as not queued', async () => {
    await held();
    const theirs = { ...PROFILE, displayName: 'Countess Ada' };
    storage.full = true;
    server(() => refusal(412, 'Precondition Failed'), theirs, '"v2"');
    const avatar = new Blob(['png'], { type: 'image/png' });
    await expect(saveProfile({ kind: 'update', id: 'p-1', fields: { bio: 'Mine' } }, avatar)).resolves.toBe('conflict');
    expect(profileConflict.value).toMatchObject({ queued: false, theirs, etag: '"v2"', mine: { bio: 'Mine' }, fields: ['bio'] });
    expect(profileConflict.value?.avatar).toBe(avatar);
    expect(await readPendingSave()).toBeNull();
  });

  it('names its steps in the state history: sent, and refused with 412', async () => {
    await held();
    server(() => json(PROFILE, 200, { etag: '"v2"' }));
    clearStateHistory();
    await saveProfile({ kind: 'update', id: 'p-1', fields: { bio: 'New' } }, null);
    expect(steps()).toEqual(['update:reset', 'update:start', 'update:success']);

    server(() => refusal(412, 'Precondition Failed'));
    clearStateHistory();
    await saveProfile({ kind: 'update', id: 'p-1', fields: { bio: 'Newer' } }, null);
    expect(steps()).toEqual(['update:reset', 'update:start', 'update:failure', 'save:conflict']);
  });
});

describe('updateProfile', () => {
  it('names its steps in the state history', async () => {
    await held();
    server(() => json(PROFILE, 200, { etag: '"v2"' }));
    clearStateHistory();
    await updateProfile('p-1', { bio: 'New' }, null);
    expect(steps()).toEqual(['update:reset', 'update:start', 'update:success']);
  });
});

describe('deleteProfile', () => {
  it('refused for another reason than a change elsewhere, rejects and reads nothing again', async () => {
    await held();
    server(() => refusal(403, 'Forbidden'));
    await expect(deleteProfile('p-1')).rejects.toMatchObject({ name: 'ApiError', status: 403 });
    expect(methods()).toEqual(['DELETE /api/user/profile/p-1']);
    expect(profileState.value).toMatchObject({ profile: PROFILE, error: 'Backend returned code 403, with body Forbidden' });
  });

  it('names its steps in the state history: deleted, and changed elsewhere', async () => {
    await held();
    server(() => new Response(null, { status: 204 }));
    clearStateHistory();
    await expect(deleteProfile('p-1')).resolves.toBe('deleted');
    expect(steps()).toEqual(['delete:start', 'delete:success']);

    await held();
    server(() => refusal(412, 'Precondition Failed'));
    clearStateHistory();
    await expect(deleteProfile('p-1')).resolves.toBe('changed');
    expect(steps()).toEqual(['delete:start', 'delete:failure', 'fetch:start', 'fetch:success', 'delete:stale']);
  });
});
