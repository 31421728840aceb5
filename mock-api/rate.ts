/**
 * A token bucket per client: `burst` requests at once, then one more every `intervalMs`. Used for
 * the anonymous push subscription creates, so that one client cannot fill the collection, as their
 * operation's `x-rate-limit` in openapi.yaml states it.
 */
import { isRecord, SpecError, type OpenApiSpec } from '../openapi-kit/index.ts';

export interface RateLimitOptions {
  /** Requests a client may make at once. */
  burst: number;
  /** How long until one more is allowed, in ms. */
  intervalMs: number;
  /** Clients remembered at most; past it, the one touched longest ago is forgotten. */
  maxClients?: number;
  now?: () => number;
}

export interface RateLimiter {
  /** Takes one request for `client`: 0 when allowed, else the whole seconds until the next one is (at least 1). */
  take(client: string): number;
  /** Gives back what `take` took from `client`: the request was not carried out, so it does not count. */
  refund(client: string): void;
  readonly size: number;
}

/**
 * The limit an operation states, `x-rate-limit: { requests: N, seconds: S }` (no client gets more
 * than N let through within S seconds), as a bucket of N refilled one every S seconds. A document
 * without it, or with it not as whole numbers, cannot start the mock.
 */
export function rateLimitOf(spec: Pick<OpenApiSpec, 'byId' | 'doc'>, operationId: string): RateLimitOptions {
  const op = spec.byId(operationId);
  const raw = spec.doc.paths[op.path]?.[op.method.toLowerCase()];
  const stated = isRecord(raw) ? raw['x-rate-limit'] : undefined;
  const { requests, seconds } = isRecord(stated) ? stated : {};
  if (!Number.isInteger(requests) || !Number.isInteger(seconds) || (requests as number) < 1 || (seconds as number) < 1)
    throw new SpecError(`${operationId} states no x-rate-limit: { requests, seconds } (whole numbers from 1)`);
  return { burst: requests as number, intervalMs: (seconds as number) * 1000 };
}

export function createRateLimiter({ burst, intervalMs, maxClients = 10_000, now = Date.now }: RateLimitOptions): RateLimiter {
  // The time at which the client's bucket is full again: an empty entry is a full bucket.
  const fullAt = new Map<string, number>();
  const span = burst * intervalMs;
  return {
    take(client) {
      const t = now();
      const start = Math.max(fullAt.get(client) ?? t, t);
      const next = start + intervalMs;
      if (next - t > span) return Math.max(1, Math.ceil((next - t - span) / 1000));
      fullAt.delete(client);
      fullAt.set(client, next);
      // Forgetting a client gives it a full bucket; the one touched longest ago (the Map's first)
      // has had the longest to refill anyway.
      if (fullAt.size > maxClients) fullAt.delete(fullAt.keys().next().value!);
      return 0;
    },
    refund(client) {
      const at = fullAt.get(client);
      if (at === undefined) return;
      if (at - intervalMs <= now()) fullAt.delete(client);
      else fullAt.set(client, at - intervalMs);
    },
    get size() {
      return fullAt.size;
    },
  };
}
