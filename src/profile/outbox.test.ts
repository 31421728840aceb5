import 'fake-indexeddb/auto';
import { effect } from '@preact/signals-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokenKeeper } from '../api/credentials';
import { configureApi } from '../api/instance';
import { clearPendingSave, readPendingSave, writePendingSave } from './pending-save';
import type { Profile, ProfileSave } from './requests';
import { t } from '../i18n';
import { setConnectivity } from '../lib/connectivity';
import { resetSnackbar, snackbar } from '../ui/snackbar/store';
import { resetProfileConflict } from './conflict-compare';
import { profileConflict } from './conflict-state';
import { resetProfileState } from './store';
import { profileState } from './store';
import { draftKey } from './draft';
import { clearStateHistory, stateHistory } from '../state/history';
import {
  dismissRefusedSave,
  dropQueuedSave,
  loadPendingSave,
  pendingProfileSave,
  queueSave,
  queuedSaveSent,
  refusedProfileSave,
  resetProfileOutbox,
  sendQueuedSave,
} from './outbox';
import { PROFILE, PROFILE_INPUT } from '../test/profile-fixture';

/*
 * The outbox over the real API stack; only the network is faked. Without XMLHttpRequest the
 * progress transport streams through fetch, so one fake fetch answers every request.
 */

const UPDATE: ProfileSave = { kind: 'update', id: 'p-1', fields: { bio: 'Offline' }, ifMatch: '"v1"' };

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

const refusal = (status: number, message: string) => json({ status, error: 'Refused', message }, status);

/** The server: each request is answered by `answer`; the requests are kept. */
let requests: Request[];
function server(answer: (request: Request) => Response | Promise<Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const request = new Request(input);
      requests.push(request);
      return answer(request);
    }),
  );
}

/** Every value `read` takes while the test runs, in order (each change once). */
function track<T>(read: () => T): T[] {
  const seen: T[] = [];
  stops.push(
    effect(() => {
      const value = read();
      if (seen.length === 0 || seen.at(-1) !== value) seen.push(value);
    }),
  );
  return seen;
}
const stops: (() => void)[] = [];

/** Queues a save as the model does when offline, then comes back online. */
async function queued(save: ProfileSave, base: Profile | null = null) {
  setConnectivity(false);
  await queueSave(save, null, 'k-1', base);
  setConnectivity(true);
}

beforeEach(() => {
  setTokenKeeper({ accessToken: async () => 'tok-ada' });
  configureApi('/api/');
  resetProfileState();
  resetProfileOutbox();
  resetProfileConflict();
  resetSnackbar();
  requests = [];
  vi.stubGlobal('XMLHttpRequest', undefined);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  setConnectivity(true);
  resetProfileOutbox();
  resetProfileConflict();
  resetSnackbar();
  await clearPendingSave();
});

describe('sending the queued save', () => {
  it('shows it going out from 0%, then the saved profile, and tells the member it was sent', async () => {
    await queued(UPDATE);
    localStorage.setItem(draftKey('p-1'), JSON.stringify({ bio: 'Offline' }));
    localStorage.setItem(draftKey(null), JSON.stringify({ displayName: 'Someone new' }));
    const saved = { ...PROFILE, bio: 'Offline' };
    server(() => json(saved, 200, { etag: '"v2"' }));
    const loading = track(() => profileState.value.loading);
    const progress = track(() => profileState.value.progress);

    await expect(sendQueuedSave()).resolves.toBe('sent');
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.headers.get('if-match')}`)).toEqual([
      'PATCH /api/user/profile/p-1 "v1"',
    ]);
    expect(loading).toEqual([false, true, false]);
    expect(progress[0]).toBeUndefined();
    expect(progress[1]).toBe(0);
    expect(profileState.value).toMatchObject({ profile: saved, etag: '"v2"', loading: false, error: null });
    expect(await readPendingSave()).toBeNull();
    expect(pendingProfileSave.value).toBeNull();
    // The draft of the profile saved is done with; a draft for a new profile is another matter.
    expect(localStorage.getItem(draftKey('p-1'))).toBeNull();
    expect(localStorage.getItem(draftKey(null))).not.toBeNull();
    expect(snackbar.value).toMatchObject({ message: t('profile.pendingSent'), duration: 5000 });
  });

  it('of a new profile, clears the draft of the new profile', async () => {
    await queued({ kind: 'create', fields: PROFILE_INPUT });
    localStorage.setItem(draftKey(null), JSON.stringify({ displayName: 'Ada' }));
    localStorage.setItem(draftKey('p-1'), JSON.stringify({ bio: 'Elsewhere' }));
    server(() => json(PROFILE, 201));
    await expect(sendQueuedSave()).resolves.toBe('sent');
    expect(localStorage.getItem(draftKey(null))).toBeNull();
    expect(localStorage.getItem(draftKey('p-1'))).not.toBeNull();
  });

  it('reported by the service worker, clears the draft and the queue the same way', async () => {
    await queued(UPDATE);
    localStorage.setItem(draftKey('p-1'), JSON.stringify({ bio: 'Offline' }));
    queuedSaveSent({ kind: 'update', id: 'p-1' });
    expect(localStorage.getItem(draftKey('p-1'))).toBeNull();
    expect(pendingProfileSave.value).toBeNull();
    expect(snackbar.value?.message).toBe(t('profile.pendingSent'));
  });
});

describe('a queued save that cannot go out now stays queued, nothing lost', () => {
  it.each([
    ['the network fails on the way', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['the member is signed out meanwhile (401)', () => refusal(401, 'Unauthorized')],
    ['the server is in trouble (500)', () => refusal(500, 'database down')],
    ['the server is in trouble (503)', () => refusal(503, 'maintenance')],
  ])('%s', async (_, answer) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await queued(UPDATE);
    server(answer);
    const loading = track(() => profileState.value.loading);
    const outcome = sendQueuedSave();
    await vi.runAllTimersAsync();
    await expect(outcome).resolves.toBe('offline');
    expect(await readPendingSave()).toMatchObject({ kind: 'update', id: 'p-1', fields: { bio: 'Offline' }, ifMatch: '"v1"' });
    expect(pendingProfileSave.value).toMatchObject({ fields: { bio: 'Offline' } });
    expect(refusedProfileSave.value).toBeNull();
    expect(loading.at(-1)).toBe(false);
  });

  it('offline, it is not even tried', async () => {
    await queued(UPDATE);
    server(() => json(PROFILE));
    setConnectivity(false);
    await expect(sendQueuedSave()).resolves.toBe('offline');
    expect(requests).toEqual([]);
    expect(pendingProfileSave.value).toMatchObject({ fields: { bio: 'Offline' } });
  });
});

describe('a queued save the server refuses', () => {
  it('leaves the queue and comes back with the reason and the fields', async () => {
    await queued(UPDATE);
    server(() => refusal(422, 'username is taken'));
    const loading = track(() => profileState.value.loading);
    await expect(sendQueuedSave()).resolves.toBe('refused');
    expect(refusedProfileSave.value).toMatchObject({ message: 'username is taken', save: { fields: { bio: 'Offline' } } });
    expect(await readPendingSave()).toBeNull();
    expect(loading).toEqual([false, true, false]);

    dismissRefusedSave();
    expect(refusedProfileSave.value).toBeNull();
  });

  it('a new profile with 412: refused with the server’s reason, not taken for a conflict (it has no version)', async () => {
    await queued({ kind: 'create', fields: PROFILE_INPUT });
    server((request) => (request.method === 'GET' ? json(PROFILE, 200, { etag: '"v3"' }) : refusal(412, 'Precondition Failed')));
    await expect(sendQueuedSave()).resolves.toBe('refused');
    expect(requests.map((r) => r.method)).toEqual(['POST']);
    expect(refusedProfileSave.value).toMatchObject({ message: 'Precondition Failed', save: { kind: 'create', fields: PROFILE_INPUT } });
    expect(await readPendingSave()).toBeNull();
    expect(profileConflict.value).toBeNull();
  });

  it('with 412 after the profile was deleted elsewhere: refused with that reason, the fields kept with it', async () => {
    await queued(UPDATE, PROFILE);
    server((request) => (request.method === 'GET' ? new Response(null, { status: 204 }) : refusal(412, 'Precondition Failed')));
    await expect(sendQueuedSave()).resolves.toBe('refused');
    expect(refusedProfileSave.value).toMatchObject({
      message: "Profile 'p-1' no longer exists",
      save: { kind: 'update', id: 'p-1', fields: { bio: 'Offline' } },
    });
    expect(await readPendingSave()).toBeNull();
    expect(pendingProfileSave.value).toBeNull();
    expect(profileConflict.value).toBeNull();
  });

  it('with 412: kept, marked, and put before the member with the fields it was made on', async () => {
    await queued(UPDATE, PROFILE);
    const theirs = { ...PROFILE, displayName: 'Countess Ada' };
    server((request) => (request.method === 'GET' ? json(theirs, 200, { etag: '"v3"' }) : refusal(412, 'Precondition Failed')));
    await expect(sendQueuedSave()).resolves.toBe('conflict');
    expect(await readPendingSave()).toMatchObject({ conflict: true, fields: { bio: 'Offline' } });
    expect(profileConflict.value).toMatchObject({ queued: true, theirs, etag: '"v3"', base: { displayName: 'Ada Lovelace' } });
  });
});

describe('a save already marked as a conflict', () => {
  it('is put before the member again without being sent or shown as sending', async () => {
    await writePendingSave({
      ...UPDATE,
      conflict: true,
      base: { bio: 'Analyst.' },
      avatar: null,
      apiBase: 'http://localhost:3000/api/',
      queuedAt: 1,
    });
    server(() => json(PROFILE, 200, { etag: '"v3"' }));
    const loading = track(() => profileState.value.loading);
    const progress = track(() => profileState.value.progress);
    await expect(sendQueuedSave()).resolves.toBe('conflict');
    expect(requests.map((r) => r.method)).toEqual(['GET']);
    expect(loading).toEqual([false]);
    expect(progress).toEqual([undefined]);
    expect(profileConflict.value).toMatchObject({ queued: true, fields: ['bio'], mine: { bio: 'Offline' } });
  });

  it('whose profile was deleted elsewhere is refused with that reason, its fields kept', async () => {
    await writePendingSave({ ...UPDATE, conflict: true, avatar: null, apiBase: 'http://localhost:3000/api/', queuedAt: 1 });
    server(() => new Response(null, { status: 204 }));
    await expect(sendQueuedSave()).resolves.toBe('refused');
    expect(refusedProfileSave.value).toMatchObject({ message: "Profile 'p-1' no longer exists", save: { fields: { bio: 'Offline' } } });
    expect(await readPendingSave()).toBeNull();
  });
});

describe('the state history', () => {
  /** The profile's steps as the history names them, transfer progress left out. */
  const steps = () =>
    stateHistory()
      .filter((change) => change.store === 'profile' && !change.action.startsWith('transfer:'))
      .map((change) => change.action);

  it('names each step of a queued save, sent and failed', async () => {
    clearStateHistory();
    await queued(UPDATE);
    server(() => json(PROFILE, 200));
    await sendQueuedSave();
    expect(steps()).toEqual(['save:queued', 'save:send-queued', 'save:sent-queued']);

    clearStateHistory();
    await queued(UPDATE);
    server(() => refusal(422, 'username is taken'));
    await sendQueuedSave();
    expect(steps()).toEqual(['save:queued', 'save:send-queued', 'save:send-queued-failed']);
  });
});

describe('what waits on the device', () => {
  it('is read after a reload, and dropped once the member chose what to keep', async () => {
    await queued(UPDATE);
    resetProfileOutbox();
    expect(pendingProfileSave.value).toBeNull();
    await expect(loadPendingSave()).resolves.toMatchObject({ fields: { bio: 'Offline' } });
    expect(pendingProfileSave.value).toMatchObject({ fields: { bio: 'Offline' } });

    await dropQueuedSave();
    expect(pendingProfileSave.value).toBeNull();
    expect(await readPendingSave()).toBeNull();
    await expect(sendQueuedSave()).resolves.toBe('none');
  });
});

describe('the outbox as the screen reads it', () => {
  // The two signals the screen reads are made when the module loads: a change to them is only seen
  // by a test that loads it. What it imports is loaded afresh here, outside the test, so that the
  // test evaluates the outbox alone and no other module's load counts as this test's.
  let fresh: { instance: typeof import('../api/instance'); credentials: typeof import('../api/credentials') };
  beforeAll(async () => {
    vi.resetModules();
    fresh = { instance: await import('../api/instance'), credentials: await import('../api/credentials') };
    await Promise.all([
      import('../api/errors'),
      import('./pending-save'),
      import('../api/transport'),
      import('../i18n'),
      import('../lib/connectivity'),
      import('../ui/snackbar/store'),
      import('./draft'),
      import('./conflict-state'),
      import('./store'),
    ]);
  });

  it('shows the save that waits, then the one the server refused with its reason', async () => {
    const outbox = await import('./outbox');
    fresh.instance.configureApi('/api/');
    fresh.credentials.setTokenKeeper({ accessToken: async () => 'tok-ada' });

    await outbox.queueSave(UPDATE, null, 'k-1');
    expect(outbox.pendingProfileSave.value).toMatchObject({ kind: 'update', id: 'p-1', fields: { bio: 'Offline' } });
    expect(outbox.refusedProfileSave.value).toBeNull();

    server(() => refusal(422, 'username is taken'));
    await expect(outbox.sendQueuedSave()).resolves.toBe('refused');
    expect(outbox.pendingProfileSave.value).toBeNull();
    expect(outbox.refusedProfileSave.value).toMatchObject({ message: 'username is taken', save: { fields: { bio: 'Offline' } } });
    outbox.resetProfileOutbox();
  });
});
