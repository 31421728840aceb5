import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchProfile, readProfile, resetProfileState } from './store';
import { profileState } from './store';
import { createProfile } from './save';
import { setTokenKeeper } from '../api/credentials';
import { clearStateHistory, stateHistory } from '../state/history';
import { PROFILE_INPUT } from '../test/profile-fixture';
import {
  ORIGIN,
  profileFixture,
  json,
  controllableFetch,
  until,
  scripts,
  xhrs,
  fetchWith,
  resetBetweenTests,
} from './store.network.test-support';

/**
 * Reading the profile: the fetch and its state (loading, none yet, an error, a newer fetch over an
 * older one), without a session, as the state history names it, and a read replaced by a newer one.
 * Over the real API stack; only the network is faked (store.network.test-support.ts).
 */

resetBetweenTests();

describe('fetchProfile', () => {
  it('is loading while the request runs and stores the returned profile', async () => {
    const { calls } = controllableFetch();
    const promise = fetchProfile();
    expect(profileState.value.loading).toBe(true);
    await until(() => calls.length === 1, 'the GET');
    expect(calls[0]!.request.method).toBe('GET');
    expect(calls[0]!.request.url).toBe(`${ORIGIN}/api/user/profile/myprofile`);
    expect(profileState.value.loading).toBe(true);

    const stored = profileFixture();
    calls[0]!.answer(json(stored));
    await expect(promise).resolves.toEqual(stored);
    expect(profileState.value).toMatchObject({ profile: stored, loading: false, error: null });
  });

  it('stores null (no error) when the member has no profile yet (204)', async () => {
    await fetchWith(json(profileFixture()));
    expect(profileState.value.profile).not.toBeNull();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(fetchProfile()).resolves.toBeNull();
    expect(profileState.value).toMatchObject({ profile: null, loading: false, error: null });
  });

  it('stores a backend error as "Backend returned code {status}, with body {message}" and re-throws it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ status: 500, error: 'Internal Server Error', message: 'database down' }, 500)),
    );
    await expect(fetchProfile()).rejects.toMatchObject({ name: 'ApiError', status: 500 });
    expect(profileState.value.error).toBe('Backend returned code 500, with body database down');
    expect(profileState.value.loading).toBe(false);
  });

  it('stores a network failure as "An error occurred: {message}" after the retries, and re-throws it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    const promise = fetchProfile();
    const outcome = expect(promise).rejects.toThrow('Failed to fetch');
    await vi.runAllTimersAsync();
    await outcome;
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(profileState.value.error).toBe('An error occurred: Failed to fetch');
    expect(profileState.value.loading).toBe(false);
  });

  it('cancels a running fetch when a new one starts; the state ends with the second answer', async () => {
    const { calls } = controllableFetch();
    const stale = profileFixture({ displayName: 'Stale' });
    const fresh = profileFixture({ displayName: 'Fresh' });

    const first = fetchProfile();
    await until(() => calls.length === 1, 'the first GET');
    expect(calls[0]!.request.headers.get('authorization')).toBe('Bearer tok-ada');
    const second = fetchProfile();

    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls[0]!.request.signal.aborted).toBe(true);
    // The cancelled call must not clear the loading flag the running one owns.
    expect(profileState.value.loading).toBe(true);

    await until(() => calls.length === 2, 'the second GET');
    // Answering the cancelled request late changes nothing.
    calls[0]!.answer(json(stale));
    calls[1]!.answer(json(fresh));
    await expect(second).resolves.toEqual(fresh);
    expect(profileState.value).toMatchObject({ profile: fresh, loading: false, error: null });
  });
});

describe('fetchProfile without a stored session', () => {
  it('sends nothing the server could only refuse, and holds no profile', async () => {
    await fetchWith(json(profileFixture(), 200));
    expect(profileState.value.profile).not.toBeNull();
    // The flag said signed in, but the site's storage was cleared: no token to send.
    setTokenKeeper({ accessToken: async () => null });
    const fetchMock = vi.fn(async () => json(profileFixture()));
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchProfile()).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(profileState.value).toMatchObject({ profile: null, etag: null, loading: false, error: null });
  });
});

describe('the state history', () => {
  /** The profile's steps as the history names them, transfer progress left out. */
  const steps = () =>
    stateHistory()
      .filter((change) => change.store === 'profile' && !change.action.startsWith('transfer:'))
      .map((change) => change.action);

  beforeEach(() => clearStateHistory());
  it('names a fetch read and a fetch failed', async () => {
    await fetchWith(json(profileFixture()));
    expect(steps()).toEqual(['fetch:start', 'fetch:success']);
    clearStateHistory();
    await fetchWith(json({ status: 500, error: 'Internal Server Error', message: 'database down' }, 500)).catch(() => undefined);
    expect(steps()).toEqual(['fetch:start', 'fetch:failure']);
  });

  it('tells a fetch replaced by a newer one from a fetch cancelled with nothing newer', async () => {
    const { calls } = controllableFetch();
    const first = fetchProfile();
    await until(() => calls.length === 1, 'the first GET');
    const second = fetchProfile();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => calls.length === 2, 'the second GET');
    calls[1]!.answer(json(profileFixture()));
    await second;
    expect(steps()).toEqual(['fetch:start', 'fetch:start', 'fetch:success']);

    clearStateHistory();
    const third = fetchProfile();
    await until(() => calls.length === 3, 'the third GET');
    resetProfileState();
    await expect(third).rejects.toMatchObject({ name: 'AbortError' });
    expect(steps()).toEqual(['fetch:start', 'fetch:cancelled']);
  });

  it('names a save cancelled by the member', async () => {
    scripts.push({ status: 201, hang: true });
    const controller = new AbortController();
    const promise = createProfile(PROFILE_INPUT, null, controller.signal);
    await until(() => xhrs.length === 1, 'the upload');
    controller.abort();
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
    expect(steps()).toEqual(['create:reset', 'create:start', 'create:cancelled']);
  });
});

describe('readProfile', () => {
  it('a read replaced by a newer one answers with the newer one, not as cancelled', async () => {
    const { calls } = controllableFetch();
    const fresh = profileFixture({ displayName: 'Fresh' });
    // As React runs a screen's effect twice in development: two reads, the first replaced.
    const first = readProfile();
    await until(() => calls.length === 1, 'the first GET');
    const second = readProfile();
    await until(() => calls.length === 2, 'the second GET');
    expect(calls[0]!.request.signal.aborted).toBe(true);
    calls[1]!.answer(json(fresh));
    await expect(first).resolves.toEqual(fresh);
    await expect(second).resolves.toEqual(fresh);
  });

  it('follows a chain of replacements to the last read, and fails as that one fails', async () => {
    const { calls } = controllableFetch();
    const first = readProfile();
    await until(() => calls.length === 1, 'the first GET');
    void fetchProfile().catch(() => undefined);
    await until(() => calls.length === 2, 'the second GET');
    const third = fetchProfile();
    await until(() => calls.length === 3, 'the third GET');
    calls[2]!.answer(json({ status: 500, error: 'Internal Server Error', message: 'down' }, 500));
    await expect(third).rejects.toBeTruthy();
    await expect(first).rejects.toMatchObject({ status: 500 });
  });

  it('a read cancelled with nothing newer (sign-out) fails as cancelled', async () => {
    const { calls } = controllableFetch();
    const read = readProfile();
    await until(() => calls.length === 1, 'the GET');
    resetProfileState();
    await expect(read).rejects.toMatchObject({ name: 'AbortError' });
  });
});
