/**
 * Sign-in throttling: failed attempts are counted per account (the name typed, whether or not such
 * a member exists, so that the answers tell no one which names do) and per client (its address).
 * The first few failures are answered at once; the next ones more and more slowly; past a limit
 * every attempt under that name or from that client is refused for a while, the right password
 * too, and the refusal says when to try again (Retry-After). A success clears the account's count,
 * not the client's: one's own account must not be a way to reset the counter for guessing others.
 */

export interface ThrottleOptions {
  /** Failures answered without delay. */
  freeFailures: number;
  /** Failures after which attempts are refused for `lockMs`. */
  lockAfter: number;
  /** The delay of the first slowed answer; it doubles with each failure after it. */
  baseDelayMs: number;
  maxDelayMs: number;
  lockMs: number;
  /** How long a failure counts. */
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = {
  freeFailures: 3,
  lockAfter: 10,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  lockMs: 5 * 60_000,
  windowMs: 15 * 60_000,
};

/**
 * Past this many keys, the oldest that are not locked are forgotten: a flood of names must not fill
 * the memory, and must not unlock an account either. Only locked keys outgrow it; each took
 * `lockAfter` failures, and is forgotten once its lock and its window have passed.
 */
const MAX_KEYS = 10_000;

interface Record {
  failures: number[];
  lockedUntil: number;
}

export interface Throttle {
  /** Milliseconds before an attempt under these keys may be made; 0 when it may be made now. */
  retryAfter(keys: readonly string[]): number;
  /** Counts a failed attempt under these keys: the delay its answer waits. */
  failed(keys: readonly string[]): number;
  /** A successful sign-in: the account's failures are forgotten. */
  succeeded(key: string): void;
}

/** The keys of an attempt: the account as typed (trimmed, lower case) and the client's address. */
export const attemptKeys = (username: string, client: string | undefined): string[] => [
  `account:${username.trim().toLowerCase()}`,
  `client:${client ?? 'unknown'}`,
];

export function createThrottle(options: Partial<ThrottleOptions> = {}, now: () => number = Date.now): Throttle {
  const o = { ...DEFAULT_THROTTLE, ...options };
  const records = new Map<string, Record>();

  const current = (key: string): Record | undefined => {
    const record = records.get(key);
    if (!record) return undefined;
    const since = now() - o.windowMs;
    record.failures = record.failures.filter((at) => at > since);
    if (record.failures.length === 0 && record.lockedUntil <= now()) {
      records.delete(key);
      return undefined;
    }
    return record;
  };

  return {
    retryAfter(keys) {
      return Math.max(0, ...keys.map((key) => (current(key)?.lockedUntil ?? 0) - now()));
    },
    failed(keys) {
      let most = 0;
      for (const key of keys) {
        const record = current(key) ?? { failures: [], lockedUntil: 0 };
        record.failures.push(now());
        if (record.failures.length >= o.lockAfter) record.lockedUntil = now() + o.lockMs;
        // Re-inserted, so that the map's order is the order of last use and the oldest go first.
        records.delete(key);
        records.set(key, record);
        most = Math.max(most, record.failures.length);
      }
      if (records.size > MAX_KEYS) {
        for (const [key, record] of records) {
          if (records.size <= MAX_KEYS) break;
          if (record.lockedUntil <= now()) records.delete(key);
        }
      }
      const slowed = most - o.freeFailures;
      return slowed <= 0 ? 0 : Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (slowed - 1));
    },
    succeeded(key) {
      records.delete(key);
    },
  };
}
