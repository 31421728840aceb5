/**
 * What the session model's tests share: the provider's client as mocks (a test says what the
 * provider answers), a stored session, a fresh model per test with the tab's and the network's
 * listeners of earlier tests removed, and the clock and the other tabs under the test's control.
 *
 * A test file hands the mocks to vi.mock itself, before anything imports the provider's client:
 *   const { oidc } = await vi.hoisted(() => import('./session.test-support'));
 *   vi.mock('../api/oidc-client', () => oidc);
 */
import { afterEach, beforeEach, vi } from 'vitest';
import type { StoredSession } from '../api/session-store';

export const oidc = {
  renewSession: vi.fn(),
  completeSignIn: vi.fn(),
  revoke: vi.fn(async () => undefined),
  signOutEverywhere: vi.fn(async () => true),
  signOutUrl: vi.fn(async () => new URL('https://app.example/oidc/session/end?x=1')),
  signInUrl: vi.fn(async () => new URL('https://app.example/oidc/auth?x=1')),
};

const ISSUER = `${location.origin}/oidc`;
export const session = (overrides: Partial<StoredSession> = {}): StoredSession => ({
  accessToken: 'access-1',
  expiresAt: Date.now() + 300_000,
  refreshToken: 'refresh-1',
  idToken: 'id-1',
  issuer: ISSUER,
  subject: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@circle.example.org',
  ...overrides,
});

/** Ada's profile creation, queued on the device while offline (idempotency key `key`). */
export const queuedCreate = (key: string) => ({
  kind: 'create' as const,
  fields: { displayName: 'Ada', username: 'ada_l', email: 'ada@example.org' },
  avatar: null,
  apiBase: `${location.origin}/api/`,
  key,
  queuedAt: Date.now(),
});

// Taken before any test fakes the timers: a short real wait lets the IndexedDB work a renewal
// started by a (fake) timer run to its end.
const realSetTimeout = globalThis.setTimeout;
export const settle = () => new Promise<void>((resolve) => realSetTimeout(resolve, 30));
/** Waits in real time, leaving the fake clock where the test put it (vi.waitFor would move it). */
export async function eventually(check: () => Promise<void>): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      return await check();
    } catch (error) {
      if (tries === 50) throw error;
      await settle();
    }
  }
}

/** The clock and the timers under the test's control; IndexedDB keeps running on its own. */
export const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });

/** Another tab's renewal as the Web Locks API shows it: `hold` runs before this tab gets the lock. */
export function stubLocks(hold: () => Promise<unknown> = async () => undefined) {
  const request = vi.fn(async (_name: string, run: () => Promise<unknown>) => {
    await hold();
    return run();
  });
  Object.defineProperty(navigator, 'locks', { value: { request }, configurable: true });
  return request;
}

export function showTab(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

// Each fresh model listens to the tab and the network: the ones of earlier tests must not answer too.
const removals: Array<() => void> = [];
function trackListeners(target: EventTarget) {
  const add = target.addEventListener.bind(target);
  vi.spyOn(target, 'addEventListener').mockImplementation((type, listener, options) => {
    add(type, listener, options);
    removals.push(() => target.removeEventListener(type, listener, options));
  });
}

export async function fresh() {
  vi.resetModules();
  trackListeners(document);
  trackListeners(window);
  const store = await import('../api/session-store');
  const auth = await import('../state/auth');
  // Through its entry, as the app loads it: the API's requests then take their tokens from it.
  const model = await (await import('./index')).loadSession();
  return { store, auth, model };
}

/**
 * Ada signed in, with a draft and a queued save, until her session ends on its own: the provider
 * refuses the renewal. Resolves with what the renewal gave (null).
 */
export async function expireWithDataKept({ store, model }: Awaited<ReturnType<typeof fresh>>) {
  const { writePendingSave } = await import('../profile/pending-save');
  await store.writeSession(session({ expiresAt: Date.now() + 5_000 }));
  await model.restoreSession().catch(() => undefined);
  localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Ada’s draft' }));
  await writePendingSave(queuedCreate('k-ada'));
  oidc.renewSession.mockRejectedValue(Object.assign(new Error('grant revoked'), { code: 'invalid_grant' }));
  return model.renew(true);
}

/** Every test starts on an empty device, with the mocks' calls forgotten, and leaves nothing behind. */
export function resetBetweenTests(): void {
  beforeEach(() => {
    localStorage.clear();
    for (const fn of Object.values(oidc)) fn.mockClear();
    vi.spyOn(location, 'assign').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    for (const remove of removals.splice(0)) remove();
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, 'locks');
    Reflect.deleteProperty(document, 'visibilityState');
    oidc.renewSession.mockReset();
    oidc.completeSignIn.mockReset();
    const { clearSession } = await import('../api/session-store');
    await clearSession();
    vi.restoreAllMocks();
  });
}
