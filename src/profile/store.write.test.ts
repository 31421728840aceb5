import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { profileState, progressMessageFor } from './store';
import { createProfile, deleteProfile, saveProfile, updateProfile } from './save';
import { pendingProfileSave, refusedProfileSave, resetProfileOutbox, sendQueuedSave } from './outbox';
import { clearPendingSave, readPendingSave } from './pending-save';
import { setConnectivity } from '../lib/connectivity';
import { PROFILE_INPUT } from '../test/profile-fixture';
import {
  t,
  ORIGIN,
  profileFixture,
  json,
  controllableFetch,
  until,
  scripts,
  xhrs,
  recordMessages,
  fetchWith,
  resetBetweenTests,
} from './store.network.test-support';

/**
 * Changing the profile: the uploads' progress and its messages, create, update and delete, and the
 * one way a save goes out (sent at once online, kept on the device offline).
 * Over the real API stack; only the network is faked (store.network.test-support.ts).
 */

resetBetweenTests();

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
