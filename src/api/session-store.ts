import { createStore, del, get, setMany } from 'idb-keyval';

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
  /** The ID token's `roles` claim; a session stored before roles existed has none. */
  roles?: string[];
}

const store = () => createStore('circle-session', 'session');
const KEY = 'current';
/**
 * Whose drafts and queued save the device holds: the last member signed in. It outlives their
 * session (an expiry keeps what they typed for their return), so that another member signing in
 * next is known to be another one.
 */
const OWNER = 'owner';

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length < 16384;

export function isStoredSession(value: unknown): value is StoredSession {
  if (!value || typeof value !== 'object') return false;
  const s = value as Record<string, unknown>;
  return (
    text(s.accessToken) &&
    // Number.isFinite refuses every non-number as well (it does not convert, unlike isFinite).
    Number.isFinite(s.expiresAt) &&
    (s.refreshToken === null || text(s.refreshToken)) &&
    text(s.idToken) &&
    text(s.issuer) &&
    text(s.subject) &&
    typeof s.name === 'string' &&
    (s.email === null || typeof s.email === 'string') &&
    (s.roles === undefined || (Array.isArray(s.roles) && s.roles.length <= 32 && s.roles.every(text)))
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
  await setMany(
    [
      [KEY, session],
      [OWNER, session.subject],
    ],
    store(),
  );
}

/** Ends the session on this device; the member's data, and so its owner, stay. */
export async function clearSession(): Promise<void> {
  await del(KEY, store()).catch(() => undefined);
}

/** The member whose data is on the device, signed in or not; null when there is none. */
export async function readDataOwner(): Promise<string | null> {
  try {
    const value: unknown = await get(OWNER, store());
    return typeof value === 'string' && value.length > 0 ? value : null;
  } catch {
    return null;
  }
}

/** The device holds no member's data any more. */
export async function clearDataOwner(): Promise<void> {
  await del(OWNER, store()).catch(() => undefined);
}
