/**
 * Push subscriptions (openapi.yaml, Push subscriptions): the endpoint and keys of a device, so
 * only an admin reads them (the router checks the role). Storing one stays open, for a guest who
 * turns notifications on, and answers a secret, `Subscription-Key`, given that once: with it the
 * device removes its own subscription. One stored with a member's token is that member's too.
 * Anonymous creates are limited per client, as createSubscription's x-rate-limit says (../rate.ts).
 *
 * Who stored what is kept beside the records, not in them (the records are the contract's
 * `Subscription`): it is lost on a restart, after which only an admin removes those records.
 */
import type { HttpHandler } from 'msw';
import { createRateLimiter, rateLimitOf, type RateLimitOptions } from '../rate.ts';
import { httpError } from '../errors.ts';
import { restCollection } from './collections.ts';
import type { MockContext } from './context.ts';

/**
 * The client a request came from, as the Node server sets it from the connection (it drops any
 * the request carried). The browser's mock serves one client and has none.
 */
export const CLIENT_HEADER = 'x-circle-mock-client';

const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

interface Owner {
  /** The database's loads when it was stored: a reset since put another record (or none) under its id. */
  loads: number;
  /** SHA-256 of the key, so that comparing takes no longer for a near miss. */
  digest: string;
  /** The member whose token stored it, if any. */
  subject: string | null;
}

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

async function digestOf(key: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function subscriptionHandlers(
  mock: MockContext,
  creates: RateLimitOptions = rateLimitOf(mock.contract.spec, 'createSubscription'),
): HttpHandler[] {
  const { route, authenticate, db } = mock;
  const subscription = restCollection(mock, 'subscription');
  const owners = new Map<string, Owner>();
  const limiter = createRateLimiter(creates);

  /** The caller's identity when the request carries a bearer token (401 for a bad one), else null. */
  const caller = async (request: Request) => (request.headers.has('authorization') ? authenticate(request) : null);

  return [
    route('get', '/subscription', ({ request }) => subscription.list(request)),
    route('post', '/subscription', async ({ request, json }) => {
      const identity = await caller(request);
      const body = await json();
      const client = identity === null ? (request.headers.get(CLIENT_HEADER) ?? '') : null;
      if (client !== null) {
        const wait = limiter.take(client);
        if (wait > 0)
          throw httpError(429, `Too many push subscriptions stored from this client: try again in ${wait} s`, {
            'retry-after': String(wait),
          });
      }
      // Only a subscription stored counts against the limit (x-rate-limit): a refused create is given back.
      const created = await subscription.create(body).catch((error: unknown) => {
        if (client !== null) limiter.refund(client);
        throw error;
      });
      const key = newKey();
      // What a reset left behind names records that are no longer these: forget it before adding one.
      for (const [id, owner] of owners) if (owner.loads !== db.loads) owners.delete(id);
      owners.set(created.body.id, { loads: db.loads, digest: await digestOf(key), subject: identity?.subject ?? null });
      return { ...created, headers: { ...created.headers, 'subscription-key': key } };
    }),
    route('get', '/subscription/{id}', ({ params }) => subscription.read(params.id)),
    route('put', '/subscription/{id}', async ({ params, json }) => subscription.replace(params.id, await json())),
    route('delete', '/subscription/{id}', async ({ request, params: { id } }) => {
      const key = request.headers.get('subscription-key');
      if (key !== null && !KEY_PATTERN.test(key)) throw httpError(400, "Header 'Subscription-Key' must be 43 base64url characters");
      const identity = await caller(request);
      subscription.read(id);
      const owner = owners.get(id);
      // An admin's replace keeps the owner; a reset may have put another device's record under the id.
      const own = owner !== undefined && owner.loads === db.loads ? owner : null;
      const allowed =
        identity?.roles.includes('admin') ||
        (own !== null && identity !== null && own.subject === identity.subject) ||
        (own !== null && key !== null && (await digestOf(key)) === own.digest);
      if (!allowed) throw httpError(403, `Subscription '${id}' belongs to another device: send its Subscription-Key`);
      owners.delete(id);
      return subscription.remove(id);
    }),
  ];
}
