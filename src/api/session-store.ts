import { createStore, del, get, set } from 'idb-keyval';

/**
 * The signed-in member's tokens, in IndexedDB: they outlive a reload, and the service worker reads
 * the access token from here to replay a queued save. What is read back is checked field by field;
 * anything else counts as no session.
 */
export interface StoredSession {
  accessToken: string;
  /** When the access token stops being accepted, in ms since the epoch. */
  expiresAt: number;
  refreshToken: string | null;
  idToken: string;
  /** The issuer that signed the member in: a session of another provider is not used. */
  issuer: string;
  subject: string;
  name: string;
  email: string | null;
}

const store = () => createStore('circle-session', 'session');
const KEY = 'current';

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length < 16384;

export function isStoredSession(value: unknown): value is StoredSession {
  if (!value || typeof value !== 'object') return false;
  const s = value as Record<string, unknown>;
  return (
    text(s.accessToken) &&
    typeof s.expiresAt === 'number' &&
    Number.isFinite(s.expiresAt) &&
    (s.refreshToken === null || text(s.refreshToken)) &&
    text(s.idToken) &&
    text(s.issuer) &&
    text(s.subject) &&
    typeof s.name === 'string' &&
    (s.email === null || typeof s.email === 'string')
  );
}

export async function readSession(): Promise<StoredSession | null> {
  try {
    const value: unknown = await get(KEY, store());
    return isStoredSession(value) ? value : null;
  } catch {
    // No IndexedDB (a private window may refuse it): no stored session.
    return null;
  }
}

export async function writeSession(session: StoredSession): Promise<void> {
  await set(KEY, session, store());
}

export async function clearSession(): Promise<void> {
  await del(KEY, store()).catch(() => undefined);
}
