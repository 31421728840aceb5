import 'fake-indexeddb/auto';
import { createStore, del, get, set } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../api/client';
import { PROFILE } from '../test/profile-fixture';

type PendingSaveModule = typeof import('./pending-save');
type PendingProfileSave = import('./pending-save').PendingProfileSave;
let outbox: PendingSaveModule;
// Of the same module load as the outbox's, for instanceof.
let ApiError: typeof import('../api/errors').ApiError;

// Where earlier versions of the app (and the service worker of another version) keep the queued save.
const STORE = () => createStore('circle', 'outbox');

const UPDATE: PendingProfileSave = {
  kind: 'update',
  id: 'p-1',
  fields: { bio: 'Offline' },
  ifMatch: '"v1"',
  avatar: null,
  apiBase: 'https://api.example',
  key: 'key-1',
  queuedAt: 1,
};

beforeEach(async () => {
  await del('profile', STORE());
  // The store, the names and the keys are the module's own: each test sees them as loaded.
  vi.resetModules();
  outbox = await import('./pending-save');
  ({ ApiError } = await import('../api/errors'));
});

describe('the queued save in IndexedDB', () => {
  it('is kept where earlier versions kept it, and read back from there', async () => {
    await outbox.writePendingSave(UPDATE);
    expect(await get('profile', STORE())).toEqual(UPDATE);

    await set('profile', { ...UPDATE, fields: { bio: 'From before' } }, STORE());
    expect(await outbox.readPendingSave()).toMatchObject({ kind: 'update', fields: { bio: 'From before' } });

    await outbox.clearPendingSave();
    expect(await get('profile', STORE())).toBeUndefined();
    expect(await outbox.readPendingSave()).toBeNull();
  });

  it('keeps the avatar a save was queued with, whatever Blob class the store gives back', async () => {
    const avatar = new Blob(['png'], { type: 'image/png' });
    expect(outbox.decodePendingSave({ ...UPDATE, avatar })?.avatar).toBe(avatar);
    const foreign = { size: 3, type: 'image/png', arrayBuffer: async () => new ArrayBuffer(3) };
    expect(outbox.decodePendingSave({ ...UPDATE, avatar: foreign })?.avatar).toBe(foreign);
  });

  it.each([
    ['none', null],
    ['a text', 'avatar.png'],
    ['a size that is no number', { size: '3', arrayBuffer: async () => new ArrayBuffer(3) }],
    ['no content', { size: 3, arrayBuffer: 'bytes' }],
    ['a function carrying a size and content', Object.assign(() => undefined, { size: 3, arrayBuffer: async () => new ArrayBuffer(3) })],
  ])('drops an avatar that is %s, and keeps the fields', async (_, avatar) => {
    expect(outbox.decodePendingSave({ ...UPDATE, avatar })).toMatchObject({ avatar: null, fields: { bio: 'Offline' } });
  });

  it.each([
    ['nothing', null],
    ['a list', [UPDATE]],
    ['no API address', { ...UPDATE, apiBase: undefined }],
    ['no fields', { ...UPDATE, fields: null }],
    ['a list of fields', { ...UPDATE, fields: ['bio'] }],
    ['another kind', { ...UPDATE, kind: 'delete' }],
    ['an update without a profile id', { ...UPDATE, id: undefined }],
    ['an update with an empty profile id', { ...UPDATE, id: '' }],
    ['an update with a profile id that is no text', { ...UPDATE, id: 7 }],
  ])('counts %s as nothing queued', async (_, value) => {
    expect(outbox.decodePendingSave(value)).toBeNull();
  });

  it('reads a queued creation and a queued update', () => {
    const create = { kind: 'create', fields: { displayName: 'Ada' }, avatar: null, apiBase: 'https://api.example', queuedAt: 1 };
    expect(outbox.decodePendingSave(create)).toEqual({ ...create, key: undefined });
    expect(outbox.decodePendingSave({ ...UPDATE, base: ['x'] })).toEqual({ ...UPDATE, base: undefined, conflict: false });
  });
});

describe('the outbox lock', () => {
  it('is the one the page and the worker of any version share', async () => {
    const request = vi.fn(async (_name: string, work: () => Promise<unknown>) => work());
    vi.stubGlobal('navigator', { locks: { request } });
    expect(await outbox.withOutboxLock(async () => 'sent')).toBe('sent');
    expect(request).toHaveBeenCalledWith('circle-profile-outbox', expect.any(Function));
    expect(outbox.OUTBOX_LOCK).toBe('circle-profile-outbox');
    expect(outbox.OUTBOX_SYNC_TAG).toBe('circle-profile-outbox');
  });

  it('just runs the work where there are no Web Locks, or no navigator at all', async () => {
    vi.stubGlobal('navigator', {});
    expect(await outbox.withOutboxLock(async () => 'sent')).toBe('sent');
    vi.stubGlobal('navigator', undefined);
    expect(await outbox.withOutboxLock(async () => 'sent too')).toBe('sent too');
  });
});

describe('sending the queued save', () => {
  let requests: Request[];
  const client = () =>
    createApiClient({
      baseUrl: 'https://api.example',
      fetch: async (request) => {
        requests.push(request);
        return new Response(JSON.stringify(PROFILE), { status: 200, headers: { 'content-type': 'application/json', etag: '"v2"' } });
      },
    });

  beforeEach(() => {
    requests = [];
  });

  it('tells a save waiting for the member from one that can be sent', () => {
    const create: PendingProfileSave = { kind: 'create', fields: PROFILE, avatar: null, apiBase: 'https://api.example', queuedAt: 1 };
    expect(outbox.isConflicted(create)).toBe(false);
    expect(outbox.isConflicted(UPDATE)).toBe(false);
    expect(outbox.isConflicted({ ...UPDATE, conflict: true })).toBe(true);
    expect(outbox.isConflicted({ ...UPDATE, ifMatch: null })).toBe(true);
  });

  it("sends a queued creation even where the stored record carries an update's conflict marks", async () => {
    const create = { kind: 'create', fields: PROFILE, avatar: null, apiBase: 'https://api.example', queuedAt: 1 };
    const save = outbox.decodePendingSave({ ...create, conflict: true, ifMatch: null });
    expect(save).not.toBeNull();
    if (!save) return;
    expect(outbox.isConflicted(save)).toBe(false);
    await outbox.sendPendingSave(client(), save);
    expect(requests.map((request) => [request.method, request.url])).toEqual([['POST', 'https://api.example/user/profile']]);
  });

  it('replays an update on the profile it was made on, under its key', async () => {
    const saved = await outbox.sendPendingSave(client(), UPDATE);
    expect(saved).toEqual({ profile: PROFILE, etag: '"v2"' });
    const [request] = requests;
    expect(request?.method).toBe('PATCH');
    expect(request?.url).toBe('https://api.example/user/profile/p-1');
    expect(request?.headers.get('if-match')).toBe('"v1"');
    expect(request?.headers.get('idempotency-key')).toBe('key-1');
  });

  it('replays a creation as a creation', async () => {
    await outbox.sendPendingSave(client(), {
      kind: 'create',
      fields: PROFILE,
      avatar: null,
      apiBase: 'https://api.example',
      key: 'key-2',
      queuedAt: 1,
    });
    expect(requests.map((request) => [request.method, request.url, request.headers.get('idempotency-key')])).toEqual([
      ['POST', 'https://api.example/user/profile', 'key-2'],
    ]);
  });

  it.each([
    ['marked as conflicting', { ...UPDATE, conflict: true }],
    ['made by a version that kept no ETag', { ...UPDATE, ifMatch: null }],
  ])('refuses an update %s as the server would, without sending it', async (_, save) => {
    const failure = await outbox.sendPendingSave(client(), save).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 412,
      body: { status: 412, error: 'Precondition Failed', message: 'The profile may have changed since this edit was made' },
    });
    expect(requests).toEqual([]);
  });

  it('keeps a refused save marked, so that it is not replayed', async () => {
    const marked = await outbox.markConflict(UPDATE);
    expect(marked).toEqual({ ...UPDATE, conflict: true });
    expect(outbox.isConflicted((await outbox.readPendingSave()) ?? UPDATE)).toBe(true);
  });
});
