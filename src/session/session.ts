/**
 * The member's session, end to end: sign-in through the provider, the way back, renewal before
 * the access token expires (and on return to the tab, and back online), sign-out at the provider
 * with everything of the member's removed from the device. Loaded when a session is started,
 * restored or ended, never with the first screen, through its entry (index.ts), which hands the
 * API the session's tokens (keepApiTokens, below).
 */
import { setTokenKeeper, type TokenKeeper } from '../api/credentials';
import { clearDataOwner, clearSession, readDataOwner, readSession, type StoredSession, writeSession } from '../api/session-store';
import { config } from '../config/load';
import { INBOX_LIST_KEY, INBOX_MARKS_KEY } from '../config/storage-keys';
import { sessionEnded, sessionStarted } from '../state/auth';
import { language } from '../state/preference';
import { removePersisted } from '../lib/persist';
import { loadProfileForget, resetProfileState } from '../profile';
import { forgetAvatars } from '../ui/widgets/avatar-images';

const oidc = () => import('../api/oidc-client');
const settings = () => ({ ...config().identityProvider, origin: location.origin });
const issuerHref = () => new URL(config().identityProvider.issuer, location.origin).href;

/** Service-worker caches that may hold the member's answers. */
const MEMBER_CACHES = ['api-reads'];
const RENEW_LOCK = 'circle-session-renew';
/** The tabs of the app tell each other about a sign-out on this channel. */
const SESSION_CHANNEL = 'circle-session';
type SessionMessage = { type: 'signed-out' };

let current: StoredSession | null = null;
/** The current token's lifetime, to renew at three quarters of it (at most a minute before its end). */
let lifetime = 300_000;
let timer: ReturnType<typeof setTimeout> | undefined;
let renewing: Promise<StoredSession | null> | null = null;

const margin = () => Math.min(60_000, lifetime / 4);
const fresh = (s: StoredSession) => s.expiresAt - Date.now() > margin();

function adopt(session: StoredSession): void {
  if (session.accessToken !== current?.accessToken) lifetime = Math.max(5_000, session.expiresAt - Date.now());
  current = session;
  sessionStarted({ subject: session.subject, name: session.name, email: session.email, roles: session.roles ?? [] });
  clearTimeout(timer);
  timer = setTimeout(() => void renew(), Math.max(1_000, session.expiresAt - margin() - Date.now()));
}

async function forget(reason: 'signed-out' | 'expired'): Promise<void> {
  clearTimeout(timer);
  current = null;
  await clearSession();
  sessionEnded(reason);
}

// Stryker disable next-line StringLiteral: typeof is never '', and every browser the app supports has BroadcastChannel
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);

/**
 * Another tab signed the member out: this one drops the session at once, and what it holds of the
 * member in memory, instead of going on with a token kept in memory until it expires. The tab that
 * signed out has already removed the member's data from the device.
 */
channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data as Partial<SessionMessage> | null;
  if (message?.type !== 'signed-out') return;
  resetProfileState();
  void loadProfileForget().then((profile) => profile.forgetProfileData(false));
  forgetAvatars();
  clearTimeout(timer);
  current = null;
  sessionEnded('signed-out');
});

/**
 * New tokens, one renewal at a time across tabs (a Web Lock): a tab that waited takes the tokens
 * the other one stored. Offline, or when the provider cannot be reached, the session is kept as it
 * is; only the provider refusing the refresh token ends it.
 */
export function renew(force = false): Promise<StoredSession | null> {
  renewing ??= (async () => {
    const run = async (): Promise<StoredSession | null> => {
      const stored = await readSession();
      if (!stored || stored.issuer !== issuerHref()) {
        await forget('expired');
        return null;
      }
      if (!force && fresh(stored)) {
        adopt(stored);
        return stored;
      }
      // Stryker disable next-line StringLiteral: typeof is never '', and this module loads only in a page, where navigator is defined
      if (typeof navigator !== 'undefined' && navigator.onLine === false) return stored;
      try {
        const next = await (await oidc()).renewSession(settings(), stored);
        await writeSession(next);
        adopt(next);
        return next;
      } catch (error) {
        if ((error as { code?: unknown }).code === 'invalid_grant') {
          await forget('expired');
          return null;
        }
        return stored;
      }
    };
    // Stryker disable next-line StringLiteral: typeof is never '', and this module loads only in a page, where navigator is defined
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    return locks ? locks.request(RENEW_LOCK, run) : run();
  })().finally(() => {
    renewing = null;
  });
  return renewing;
}

/** The access token for an API request: renewed first when it is about to expire. */
export async function accessToken(): Promise<string | null> {
  const session = current ?? (await readSession());
  if (!session) return null;
  if (fresh(session)) return session.accessToken;
  const renewed = await renew();
  return renewed?.accessToken ?? null;
}

/**
 * A token the API refused: renewed once. A request that was refused while another one renewed
 * takes the newer token without a second renewal; null when no new token can be had.
 */
export async function renewRefused(refused: string): Promise<string | null> {
  const held = current ?? (await readSession());
  if (held && held.accessToken !== refused && fresh(held)) return held.accessToken;
  const renewed = await renew(true);
  return renewed && renewed.accessToken !== refused ? renewed.accessToken : null;
}

/** What the API's requests take from the session (api/credentials.ts). */
const sessionTokens: TokenKeeper = {
  accessToken,
  renewRefused,
  // Even a new token is refused: the session cannot be used. The member is shown signed out (and
  // asked to sign in again); drafts and the queued save stay, so what they typed is not lost.
  refusedAgain: () => {
    if (current) void forget('expired');
  },
};

/** From now on the API's requests take their tokens from this model: its entry (index.ts) calls this as it loads it. */
export function keepApiTokens(): void {
  setTokenKeeper(sessionTokens);
}

// Stryker disable next-line StringLiteral: typeof is never '', and this module loads only in a page, where document is defined
if (typeof document !== 'undefined') {
  const check = () => {
    if (current && !fresh(current)) void renew();
  };
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && check());
  window.addEventListener('online', check);
}

/** At start: the stored session, if it is this provider's; a stale flag is set right. */
export async function restoreSession(): Promise<void> {
  const stored = await readSession();
  if (!stored || stored.issuer !== issuerHref()) {
    // A session of another provider (the configuration changed): its member's drafts and queued
    // save go with it, as at a sign-out; they must not wait for whoever signs in next here.
    if (stored) await clearMemberData();
    if (stored) await clearSession();
    // Stryker disable next-line StringLiteral: sessionEnded tells only 'expired' apart; any other reason is a sign-out
    sessionEnded('signed-out');
    return;
  }
  adopt(stored);
  if (!fresh(stored)) await renew();
}

/** Goes to the provider's sign-in page; `next` is where the app returns after it. */
export async function beginSignIn(next: string): Promise<void> {
  const url = await (await oidc()).signInUrl(settings(), next, language.value);
  location.assign(url.href);
}

/** Completes the sign-in the provider came back with; the path to go on to. */
export async function finishSignIn(callback: URL): Promise<string> {
  const { session, next } = await (await oidc()).completeSignIn(settings(), callback);
  // Whose data the device holds: the member signed in, or the one whose session expired (what they
  // typed was kept for their return). Another member signing in finds nothing of theirs, and a
  // queued save never goes out with another member's token.
  const previous = (await readSession())?.subject ?? (await readDataOwner());
  if (previous && previous !== session.subject) await clearMemberData();
  await writeSession(session);
  adopt(session);
  return next;
}

/** Removes the member's data from the device: drafts, the queued save, cached answers, the profile in memory. */
export async function clearMemberData(): Promise<void> {
  // A read still running is cancelled too: its answer would put the member's profile back.
  resetProfileState();
  forgetAvatars();
  // The notifications kept for the next visit, and the read marks not sent yet, are the member's too
  // (`inbox.*`, state/inbox/store.ts; `cache.notifications`, what an earlier version kept).
  for (const key of ['cache.notifications', INBOX_LIST_KEY, INBOX_MARKS_KEY]) removePersisted(key);
  await Promise.all([
    loadProfileForget().then((profile) => profile.forgetProfileData(true)),
    clearDataOwner(),
    // Stryker disable next-line ArrayDeclaration,BooleanLiteral: Promise.all's values are not read, only that each settles
    ...(typeof caches === 'undefined' ? [] : MEMBER_CACHES.map((name) => caches.delete(name).catch(() => false))),
  ]);
}

/**
 * Signs out: the member's data leaves the device first (even offline), every other tab of the app
 * is told, then the refresh token is revoked and the provider's session ended on its own page
 * (which asks nothing more: the app sends the member's ID token), coming back to the app.
 * `everywhere`: the provider ends every session of the member, on every device, instead.
 */
export async function endSession(everywhere = false): Promise<void> {
  const session = current ?? (await readSession());
  await clearMemberData();
  // Stryker disable next-line StringLiteral: sessionEnded tells only 'expired' apart; any other reason is a sign-out
  await forget('signed-out');
  // Every other tab of the app is signed out at once, before this one goes to the provider.
  const message: SessionMessage = { type: 'signed-out' };
  channel?.postMessage(message);
  if (!session || navigator.onLine === false) return;
  try {
    const client = await oidc();
    // Every device: the provider ends every session of the member, this one's included, so there
    // is no session left to end on its page. Refused (another provider), this device signs out alone.
    if (everywhere && (await client.signOutEverywhere(settings(), session).catch(() => false))) return;
    await client.revoke(settings(), session).catch(() => undefined);
    const url = await client.signOutUrl(settings(), session, language.value);
    if (url) location.assign(url.href);
  } catch {
    // The provider cannot be reached: the app is signed out; its session there ends on its own.
  }
}
