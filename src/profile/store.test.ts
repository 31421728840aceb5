import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TransferEvent } from '../api/progress';
import { PROFILE } from '../test/profile-fixture';

/*
 * The store is evaluated afresh in each test (its state and the signals read from it are created
 * on import), and its history with it.
 */

let store: typeof import('./store');
let history: typeof import('../state/history');

beforeEach(async () => {
  vi.resetModules();
  store = await import('./store');
  history = await import('../state/history');
});

describe('the profile store', () => {
  it('starts with no profile, nothing loading, no error and no transfer', () => {
    expect(store.profileState.value).toStrictEqual({
      profile: null,
      etag: null,
      error: null,
      loading: false,
      progress: undefined,
      progressMessage: null,
    });
    expect(store.profileLoading.value).toBe(false);
  });

  it('gives each part of the state as its own signal', () => {
    const message = { key: 'profile.progress.upload', params: { percent: 40 } } as const;
    store.setProfileState('test', { profile: PROFILE, etag: '"v1"', error: 'oops', loading: true, progress: 40, progressMessage: message });
    expect(store.profileState.value).toMatchObject({ profile: PROFILE, etag: '"v1"', loading: true });
    expect(store.profile.value).toBe(PROFILE);
    expect(store.profileEtag.value).toBe('"v1"');
    expect(store.profileLoading.value).toBe(true);
    expect(store.profileError.value).toBe('oops');
    expect(store.profileProgress.value).toBe(40);
    expect(store.profileProgressMessage.value).toBe(message);

    store.resetProfileState();
    expect(store.profile.value).toBeNull();
    expect(store.profileLoading.value).toBe(false);
  });

  it("records each change in the state history, the profile by its id only (the member's data stays out of it)", () => {
    store.setProfileState('fetch:success', { profile: PROFILE, etag: '"v1"' });
    store.setProfileState('delete:success', { profile: null, etag: null });
    expect(history.stateHistory().map(({ store, action, state }) => ({ store, action, state }))).toStrictEqual([
      {
        store: 'profile',
        action: 'fetch:success',
        state: { profile: 'p-1', etag: '"v1"', error: null, loading: false, progress: undefined, progressMessage: null },
      },
      {
        store: 'profile',
        action: 'delete:success',
        state: { profile: null, etag: null, error: null, loading: false, progress: undefined, progressMessage: null },
      },
    ]);
  });
});

describe('onTransfer', () => {
  it('shows each step of a transfer with its percent, named in the history', () => {
    store.onTransfer({ type: 'upload', loaded: 1, total: 4 });
    expect(store.profileState.value).toMatchObject({
      progress: 25,
      progressMessage: { key: 'profile.progress.upload', params: { percent: 25 } },
    });
    expect(history.stateHistory().at(-1)?.action).toBe('transfer:upload');
  });

  it('says something went wrong on a step it does not know, and leaves the percent as it was', () => {
    store.onTransfer({ type: 'download', loaded: 1, total: 2 });
    // A newer transport may report steps this version does not know of.
    store.onTransfer({ type: 'response-header' } as unknown as TransferEvent);
    expect(store.profileState.value).toMatchObject({ progress: 50, progressMessage: { key: 'profile.progress.unknown' } });
  });
});

describe('the profile kept for the next visit', () => {
  const KEY = 'profile.last';

  afterEach(() => localStorage.clear());

  async function freshStore(signedIn: boolean) {
    localStorage.setItem('auth.isLoggedIn', JSON.stringify(signedIn));
    vi.resetModules();
    return import('./store');
  }

  it('is what the server last answered, without its ETag, and goes with the profile', () => {
    store.setProfileState('fetch:success', { profile: PROFILE, etag: '"v1"' });
    expect(JSON.parse(localStorage.getItem(KEY) ?? 'null')).toEqual(PROFILE);
    store.setProfileState('fetch:start', { loading: true });
    expect(JSON.parse(localStorage.getItem(KEY) ?? 'null')).toEqual(PROFILE);
    store.setProfileState('delete:success', { profile: null, etag: null });
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('is shown at once to the member signed in, while it is read again; its ETag is not known', async () => {
    localStorage.setItem(KEY, JSON.stringify(PROFILE));
    const next = await freshStore(true);
    expect(next.profileState.value).toMatchObject({ profile: PROFILE, etag: null, loading: false });
  });

  it('is never shown to a visitor signed out, nor when it is not a profile', async () => {
    localStorage.setItem(KEY, JSON.stringify(PROFILE));
    expect((await freshStore(false)).profile.value).toBeNull();
    localStorage.setItem(KEY, JSON.stringify({ id: 'p-1', displayName: 42 }));
    expect((await freshStore(true)).profile.value).toBeNull();
  });

  it('is removed with the rest when the store is reset (sign-out)', () => {
    store.setProfileState('fetch:success', { profile: PROFILE });
    store.resetProfileState();
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(store.profile.value).toBeNull();
  });
});
