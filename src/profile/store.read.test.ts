import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effect } from '@preact/signals-core';
import { fetchProfile, readProfile, resetProfileState } from './store';
import { profileState, progressMessageFor } from './store';
import { createProfile, deleteProfile, saveProfile, updateProfile } from './save';
import { pendingProfileSave, refusedProfileSave, resetProfileOutbox, sendQueuedSave } from './outbox';
import { clearPendingSave, readPendingSave } from './pending-save';
import { setConnectivity } from '../lib/connectivity';
import { configureApi } from '../api/instance';
import { setTokenKeeper } from '../api/credentials';
import { withWords } from '../i18n';
// The progress messages are the profile screen's words, taken with it.
import { enProfile } from '../i18n/en-profile';
import type { Profile } from './requests';
import { clearStateHistory, stateHistory } from '../state/history';
import { PROFILE_INPUT } from '../test/profile-fixture';

const t = withWords(enProfile);

/*
 * The store runs over the real API stack (openapi-fetch client, retrying fetch, progress
 * transport); only the network is faked: global fetch for GET/DELETE, XMLHttpRequest for the
 * uploads of create and update.
 */

const ORIGIN = 'http://localhost:3000';

function profileFixture(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'p-1',
    displayName: 'Ada Lovelace',
    username: 'ada',
    email: 'ada@example.org',
    bio: '',
    interests: ['maths'],
    language: 'en',
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
    ...overrides,
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A fetch whose answers the test gives one by one; it honours the request's AbortSignal like a browser. */
function controllableFetch() {
  const calls: { request: Request; answer: (response: Response) => void; fail: (error: unknown) => void }[] = [];
  const fetchMock = vi.fn(
    (request: Request) =>
      new Promise<Response>((resolve, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
        calls.push({ request, answer: resolve, fail: reject });
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

interface XhrScript {
  status: number;
  body?: unknown;
  upload?: [loaded: number, total: number][];
  download?: [loaded: number, total: number][];
  networkError?: boolean;
  /** Never answers on its own: the test aborts it. */
  hang?: boolean;
}

const scripts: XhrScript[] = [];
const xhrs: FakeXhr[] = [];

class FakeXhr {
  method = '';
  url = '';
  responseType = '';
  withCredentials = false;
  status = 0;
  statusText = '';
  response: ArrayBuffer | null = null;
  requestHeaders: Record<string, string> = {};
  body: unknown;
  aborted = false;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(key: string, value: string) {
    this.requestHeaders[key] = value;
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\n';
  }
  abort() {
    if (this.aborted) return;
    this.aborted = true;
    setTimeout(() => this.onabort?.(), 0);
  }
  send(body: unknown) {
    this.body = body;
    xhrs.push(this);
    const script = scripts.shift();
    if (!script) throw new Error(`Unexpected XHR ${this.method} ${this.url}`);
    if (script.hang) return;
    setTimeout(() => this.play(script), 0);
  }
  private play(script: XhrScript) {
    if (this.aborted) return;
    for (const [loaded, total] of script.upload ?? []) this.upload.onprogress?.({ loaded, total, lengthComputable: total > 0 });
    if (script.networkError) {
      this.onerror?.();
      return;
    }
    for (const [loaded, total] of script.download ?? []) this.onprogress?.({ loaded, total, lengthComputable: total > 0 });
    this.status = script.status;
    this.statusText = script.status < 400 ? 'OK' : 'Error';
    this.response = new TextEncoder().encode(JSON.stringify(script.body ?? null)).buffer as ArrayBuffer;
    this.onload?.();
  }
}

/** Every progress message the store goes through, in order. */
function recordMessages(): { messages: (string | null)[]; progress: (number | undefined)[]; stop: () => void } {
  const messages: (string | null)[] = [];
  const progress: (number | undefined)[] = [];
  const stop = effect(() => {
    const s = profileState.value;
    // Read as the English catalogue shows it: the seed's own words.
    const text = s.progressMessage && t(s.progressMessage.key, s.progressMessage.params);
    if (messages.at(-1) !== text || messages.length === 0) messages.push(text);
    if (progress.at(-1) !== s.progress || progress.length === 0) progress.push(s.progress);
  });
  return { messages, progress, stop };
}

async function fetchWith(response: Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => response),
  );
  return fetchProfile();
}

beforeEach(() => {
  // The member's token, as the session model would give it (its own tests are session/session.tokens.test.ts).
  setTokenKeeper({ accessToken: async () => 'tok-ada' });
  configureApi('/api/');
  resetProfileState();
  scripts.length = 0;
  xhrs.length = 0;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  // The client logs every backend error; keep the test output clean but let tests read it.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  resetProfileState();
});

describe('progressMessageFor', () => {
  /** The message in English, the seed's words, with its percent. */
  const english = (event: Parameters<typeof progressMessageFor>[0]) => {
    const { message, percent } = progressMessageFor(event);
    return { message: t(message.key, message.params), percent };
  };

  it('gives the seed messages for each transfer event', () => {
    expect(english({ type: 'sent' })).toEqual({ message: 'Uploading Files', percent: 0 });
    expect(english({ type: 'upload', loaded: 25, total: 100 })).toEqual({ message: 'Files are 25% uploaded', percent: 25 });
    expect(english({ type: 'download', loaded: 1, total: 3 })).toEqual({ message: 'Files are 33% downloaded', percent: 33 });
    // An unknown size reads as 0%, never NaN.
    expect(english({ type: 'upload', loaded: 10, total: 0 })).toEqual({ message: 'Files are 0% uploaded', percent: 0 });
  });

  it("falls back to 'Something went wrong' for an unknown event type", () => {
    expect(english({ type: 'response-header' })).toEqual({ message: 'Something went wrong', percent: undefined });
  });
});

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

describe('createProfile', () => {
  it('resets progress to 0, reports upload and download progress with the seed messages and stores the final body', async () => {
    const created = profileFixture({ id: 'new-1' });
    scripts.push({
      status: 201,
      body: created,
      upload: [
        [50, 200],
        [200, 200],
      ],
      download: [
        [40, 80],
        [80, 80],
      ],
    });
    const rec = recordMessages();

    const promise = createProfile(PROFILE_INPUT, null);
    expect(profileState.value.progress).toBe(0);
    expect(profileState.value.loading).toBe(true);
    await expect(promise).resolves.toEqual(created);
    rec.stop();

    expect(rec.messages).toEqual([
      null,
      'Uploading Files',
      'Files are 25% uploaded',
      'Files are 100% uploaded',
      'Files are 50% downloaded',
      'Files are 100% downloaded',
    ]);
    expect(rec.progress).toEqual([undefined, 0, 25, 100, 50, 100]);
    expect(profileState.value).toMatchObject({ profile: created, loading: false, error: null, progress: 100 });

    const xhr = xhrs[0]!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(`${ORIGIN}/api/user/profile`);
    // The body is multipart/form-data, so the browser sets the content type with its boundary.
    expect((xhr.body as Blob).type).toMatch(/^multipart\/form-data/);
  });

  it('starts again from 0 on the next upload', async () => {
    scripts.push({ status: 201, body: profileFixture(), upload: [[10, 10]] });
    await createProfile(PROFILE_INPUT, null);
    expect(profileState.value.progress).toBe(100);

    scripts.push({ status: 201, body: profileFixture(), hang: true });
    const controller = new AbortController();
    const again = createProfile(PROFILE_INPUT, null, controller.signal);
    expect(profileState.value.progress).toBe(0);
    expect(profileState.value.progressMessage).toBeNull();
    await until(() => xhrs.length === 2, 'the second upload');
    controller.abort();
    await expect(again).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('sends the avatar file with the fields', async () => {
    scripts.push({ status: 201, body: profileFixture() });
    const avatar = new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });
    await createProfile(PROFILE_INPUT, avatar);
    const body = xhrs[0]!.body as Blob;
    const text = await body.text();
    expect(text).toContain('name="avatar"; filename="me.png"');
    expect(text).toContain('name="username"');
    expect(text).toContain('ada@example.org');
  });

  it('stores a network failure as "An error occurred: …", clears loading and re-throws', async () => {
    scripts.push({ status: 0, networkError: true, upload: [[5, 10]] });
    await expect(createProfile(PROFILE_INPUT, null)).rejects.toThrow('Network request failed');
    expect(profileState.value.error).toBe('An error occurred: Network request failed');
    expect(profileState.value.loading).toBe(false);
    expect(profileState.value.profile).toBeNull();
  });

  it('clears loading when the user cancels the upload', async () => {
    scripts.push({ status: 201, hang: true });
    const controller = new AbortController();
    const promise = createProfile(PROFILE_INPUT, null, controller.signal);
    await until(() => xhrs.length === 1, 'the upload');
    expect(profileState.value.loading).toBe(true);
    controller.abort();
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
    expect(xhrs[0]!.aborted).toBe(true);
    expect(profileState.value.loading).toBe(false);
    expect(profileState.value.error).toBeNull();
  });
});

describe('updateProfile', () => {
  it('PATCHes the profile by id and stores the final body', async () => {
    const updated = profileFixture({ displayName: 'Countess Ada' });
    scripts.push({ status: 200, body: updated, upload: [[1, 1]], download: [[1, 1]] });
    const rec = recordMessages();
    const promise = updateProfile('p-1', { displayName: 'Countess Ada' }, null);
    expect(profileState.value.progress).toBe(0);
    expect(profileState.value.loading).toBe(true);
    await expect(promise).resolves.toEqual(updated);
    rec.stop();
    expect(xhrs[0]!.method).toBe('PATCH');
    expect(xhrs[0]!.url).toBe(`${ORIGIN}/api/user/profile/p-1`);
    expect(rec.messages).toEqual([null, 'Uploading Files', 'Files are 100% uploaded', 'Files are 100% downloaded']);
    expect(profileState.value).toMatchObject({ profile: updated, loading: false, error: null });
  });

  it('stores a backend refusal with its status and message, keeps the old profile and re-throws', async () => {
    const original = profileFixture();
    await fetchWith(json(original));

    scripts.push({ status: 422, body: { status: 422, error: 'Unprocessable Entity', message: 'username is taken' } });
    await expect(updateProfile('p-1', { username: 'taken' }, null)).rejects.toMatchObject({ status: 422 });
    expect(profileState.value.error).toBe('Backend returned code 422, with body username is taken');
    expect(profileState.value.loading).toBe(false);
    expect(profileState.value.profile).toEqual(original);
  });
});

describe('deleteProfile', () => {
  async function withProfile() {
    await fetchWith(json(profileFixture()));
    expect(profileState.value.profile).not.toBeNull();
  }

  it('clears the stored profile, with loading true during the call', async () => {
    await withProfile();
    const { calls } = controllableFetch();
    const promise = deleteProfile('p-1');
    expect(profileState.value.loading).toBe(true);
    await until(() => calls.length === 1, 'the DELETE');
    expect(calls[0]!.request.method).toBe('DELETE');
    expect(calls[0]!.request.url).toBe(`${ORIGIN}/api/user/profile/p-1`);
    calls[0]!.answer(new Response(null, { status: 204 }));
    await promise;
    expect(profileState.value).toMatchObject({ profile: null, loading: false, error: null });
  });

  it('stores a failure, keeps the profile and re-throws', async () => {
    await withProfile();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ status: 404, error: 'Not Found', message: "Profile 'p-1' not found" }, 404)),
    );
    await expect(deleteProfile('p-1')).rejects.toMatchObject({ status: 404 });
    expect(profileState.value.error).toBe("Backend returned code 404, with body Profile 'p-1' not found");
    expect(profileState.value.loading).toBe(false);
    expect(profileState.value.profile).not.toBeNull();
  });
});

describe('saveProfile: the one way a save goes out', () => {
  const refusal = { status: 422, error: 'Unprocessable Content', message: 'username is taken' };

  afterEach(async () => {
    setConnectivity(true);
    await clearPendingSave();
    resetProfileOutbox();
  });

  it('sends at once when online, stores the answer and clears the draft', async () => {
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Ada' }));
    scripts.push({ status: 201, body: profileFixture() });
    await expect(saveProfile({ kind: 'create', fields: PROFILE_INPUT }, null)).resolves.toBe('saved');
    expect(xhrs).toHaveLength(1);
    expect(profileState.value.profile?.id).toBe('p-1');
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    expect(await readPendingSave()).toBeNull();
  });

  // (The avatar's way through IndexedDB is covered in e2e: this test's IndexedDB cannot clone a happy-dom Blob.)
  it('offline, keeps the save on the device and sends nothing', async () => {
    setConnectivity(false);
    await expect(saveProfile({ kind: 'update', id: 'p1', fields: { bio: 'Hi' } }, null)).resolves.toBe('queued');
    expect(xhrs).toHaveLength(0);
    expect(await readPendingSave()).toMatchObject({
      kind: 'update',
      id: 'p1',
      fields: { bio: 'Hi' },
      apiBase: `${ORIGIN}/api/`,
      avatar: null,
    });
    expect(pendingProfileSave.value?.kind).toBe('update');
  });

  it('keeps the save when the network fails on the way, under the key the lost attempt carried', async () => {
    scripts.push({ status: 0, networkError: true });
    await expect(saveProfile({ kind: 'create', fields: PROFILE_INPUT }, null)).resolves.toBe('queued');
    const queued = await readPendingSave();
    expect(queued).toMatchObject({ kind: 'create', fields: PROFILE_INPUT });
    // The server may have taken the lost attempt: the replay must be recognisable as the same save.
    expect(queued?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(xhrs[0]?.requestHeaders['idempotency-key'] ?? xhrs[0]?.requestHeaders['Idempotency-Key']).toBe(queued?.key);
  });

  it('a refusal by the server is thrown, and nothing is queued', async () => {
    scripts.push({ status: 422, body: refusal });
    await expect(saveProfile({ kind: 'create', fields: PROFILE_INPUT }, null)).rejects.toMatchObject({ name: 'ApiError', status: 422 });
    expect(await readPendingSave()).toBeNull();
    expect(pendingProfileSave.value).toBeNull();
  });

  it('sendQueuedSave sends what waits once back online, then clears it', async () => {
    setConnectivity(false);
    await saveProfile({ kind: 'create', fields: PROFILE_INPUT }, null);
    expect(await sendQueuedSave()).toBe('offline');
    setConnectivity(true);
    const key = (await readPendingSave())?.key;
    scripts.push({ status: 201, body: profileFixture() });
    expect(await sendQueuedSave()).toBe('sent');
    expect(xhrs.map((x) => `${x.method} ${x.url}`)).toEqual([`POST ${ORIGIN}/api/user/profile`]);
    expect(key).toBeTruthy();
    expect(xhrs[0]?.requestHeaders['idempotency-key'] ?? xhrs[0]?.requestHeaders['Idempotency-Key']).toBe(key);
    expect(await readPendingSave()).toBeNull();
    expect(pendingProfileSave.value).toBeNull();
    expect(profileState.value.profile?.id).toBe('p-1');
    expect(await sendQueuedSave()).toBe('none');
  });

  it('a queued save the server refuses comes back with the reason, and leaves the queue', async () => {
    setConnectivity(false);
    await saveProfile({ kind: 'update', id: 'p1', fields: { bio: 'Hi' } }, null);
    setConnectivity(true);
    scripts.push({ status: 422, body: refusal });
    expect(await sendQueuedSave()).toBe('refused');
    expect(refusedProfileSave.value).toMatchObject({ message: 'username is taken', save: { kind: 'update', fields: { bio: 'Hi' } } });
    expect(await readPendingSave()).toBeNull();
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
