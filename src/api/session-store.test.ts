import 'fake-indexeddb/auto';
import { createStore, get, set } from 'idb-keyval';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearDataOwner,
  clearSession,
  isStoredSession,
  readDataOwner,
  readSession,
  type StoredSession,
  writeSession,
} from './session-store';

const SESSION: StoredSession = {
  accessToken: 'access-1',
  expiresAt: 1_900_000_000_000,
  refreshToken: 'refresh-1',
  idToken: 'id-1',
  issuer: 'https://app.example/oidc',
  subject: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@circle.example.org',
};

/** Puts a value where the store keeps the session, as another version of the app (or a tamperer) might. */
const plant = (value: unknown) => set('current', value, createStore('circle-session', 'session'));

afterEach(() => Promise.all([clearSession(), clearDataOwner()]));

describe('the session store', () => {
  it('gives back what it stored', async () => {
    await writeSession(SESSION);
    expect(await readSession()).toEqual(SESSION);
    await clearSession();
    expect(await readSession()).toBeNull();
  });

  it('knows whose data the device holds past the end of the session, until that is cleared', async () => {
    expect(await readDataOwner()).toBeNull();
    await writeSession(SESSION);
    expect(await readDataOwner()).toBe('ada');
    await clearSession();
    expect(await readDataOwner()).toBe('ada');
    await writeSession({ ...SESSION, subject: 'grace' });
    expect(await readDataOwner()).toBe('grace');
    await clearDataOwner();
    expect(await readDataOwner()).toBeNull();
  });

  it('reads an owner that is not a name as none', async () => {
    await set('owner', { subject: 'ada' }, createStore('circle-session', 'session'));
    expect(await readDataOwner()).toBeNull();
    await set('owner', '', createStore('circle-session', 'session'));
    expect(await readDataOwner()).toBeNull();
    await set('owner', ['ada'], createStore('circle-session', 'session'));
    expect(await readDataOwner()).toBeNull();
  });

  it('reads the session and owner another tab or the service worker stored under the shared names', async () => {
    await plant(SESSION);
    await set('owner', 'grace', createStore('circle-session', 'session'));
    expect(await readSession()).toEqual(SESSION);
    expect(await readDataOwner()).toBe('grace');
  });

  it('from a freshly loaded module, reads and writes under the names the service worker and other tabs use', async () => {
    // The database, store and key names are set when the module loads: load it again to check them.
    vi.resetModules();
    const fresh = await import('./session-store');
    const shared = createStore('circle-session', 'session');
    await plant(SESSION);
    await set('owner', 'grace', shared);
    expect(await fresh.readSession()).toEqual(SESSION);
    expect(await fresh.readDataOwner()).toBe('grace');
    const next = { ...SESSION, accessToken: 'access-2', subject: 'lin' };
    await fresh.writeSession(next);
    expect(await get('current', shared)).toEqual(next);
    expect(await get('owner', shared)).toBe('lin');
    await fresh.clearSession();
    expect(await get('current', shared)).toBeUndefined();
    expect(await get('owner', shared)).toBe('lin');
  });

  it('reads no session and no owner where IndexedDB is refused, as in some private windows', async () => {
    vi.stubGlobal('indexedDB', undefined);
    try {
      expect(await readSession()).toBeNull();
      expect(await readDataOwner()).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('refuses a function, even one carrying every field of a session', () => {
    const { name: _, ...fields } = SESSION;
    expect(isStoredSession(Object.assign(() => undefined, fields))).toBe(false);
  });

  it('takes a token just under the length limit and refuses one at it', () => {
    expect(isStoredSession({ ...SESSION, accessToken: 'x'.repeat(16_383) })).toBe(true);
    expect(isStoredSession({ ...SESSION, accessToken: 'x'.repeat(16_384) })).toBe(false);
  });

  it('takes a session without refresh token or e-mail', () => {
    expect(isStoredSession({ ...SESSION, refreshToken: null, email: null })).toBe(true);
    expect(isStoredSession({ ...SESSION, name: '' })).toBe(true);
  });

  it('takes roles as a short list of names, or none (a session stored before roles existed)', () => {
    expect(isStoredSession({ ...SESSION, roles: ['member', 'admin'] })).toBe(true);
    expect(isStoredSession({ ...SESSION, roles: [] })).toBe(true);
    expect(isStoredSession({ ...SESSION, roles: Array.from({ length: 32 }, (_, i) => `r${i}`) })).toBe(true);
    expect(isStoredSession({ ...SESSION, roles: Array.from({ length: 33 }, (_, i) => `r${i}`) })).toBe(false);
  });

  it.each([
    ['nothing', undefined],
    ['null', null],
    ['a string', 'access-1'],
    ['an array', [SESSION]],
    ['no access token', { ...SESSION, accessToken: undefined }],
    ['an empty access token', { ...SESSION, accessToken: '' }],
    ['an access token too long to be one', { ...SESSION, accessToken: 'x'.repeat(20_000) }],
    ['an expiry as text', { ...SESSION, expiresAt: '1900000000000' }],
    ['an expiry that is no number', { ...SESSION, expiresAt: Number.NaN }],
    ['an endless expiry', { ...SESSION, expiresAt: Number.POSITIVE_INFINITY }],
    ['a refresh token of another type', { ...SESSION, refreshToken: 42 }],
    ['no ID token', { ...SESSION, idToken: null }],
    ['no issuer', { ...SESSION, issuer: '' }],
    ['no subject', { ...SESSION, subject: undefined }],
    ['a name of another type', { ...SESSION, name: { first: 'Ada' } }],
    ['an e-mail of another type', { ...SESSION, email: ['ada@circle.example.org'] }],
    ['roles that are no list', { ...SESSION, roles: 'admin' }],
    ['a role that is no name', { ...SESSION, roles: ['member', 7] }],
    ['an empty role', { ...SESSION, roles: [''] }],
  ])('reads %s back as no session (signed out)', async (_, value) => {
    expect(isStoredSession(value)).toBe(false);
    await plant(value);
    expect(await readSession()).toBeNull();
  });
});
