/**
 * The fault table: each entry is one realistic backend bug, injected into exactly one operation of
 * openapi.yaml by the proxy in ./backend.ts. Every other exchange passes through untouched.
 *
 * A fault sees the exchange of its operation and answers it, usually by forwarding it to the mock and
 * editing the answer (status, headers, JSON body); the stateful ones send their own requests to the
 * mock first (read the record before a delete) or afterwards (put the old record back).
 */

/** An answer as the proxy buffers it: the body is complete, the headers are the upstream's. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Exchange {
  method: string;
  /** The request target as received, e.g. `/api/accounts/1?x=y`. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Sends this exchange (or, with `init`, another request) to the mock and buffers its answer. */
  forward(init?: { method?: string; url?: string; body?: Buffer; headers?: Record<string, string> }): Promise<Answer>;
  /** The `Authorization` of the member whose profile verify works on (grace): what a fault that mixes members up sends instead. */
  ownerAuthorization: string;
  /** The `Authorization` of the admin (ada): what a fault that lets members do an admin's work sends instead. */
  adminAuthorization: string;
}

export interface Fault {
  /** The one operation of openapi.yaml whose exchanges this fault answers. */
  operationId: string;
  /** What breaks, in the contract's terms. */
  breaks: string;
  answer(exchange: Exchange): Promise<Answer>;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** The exchange sent again as the owner of the profile when the mock refused it as another member's (403). */
async function asOwnerWhenForbidden(exchange: Exchange): Promise<Answer> {
  const upstream = await exchange.forward();
  if (upstream.status !== 403) return upstream;
  return exchange.forward({ headers: { ...exchange.headers, authorization: exchange.ownerAuthorization } });
}

/** The exchange sent again as the admin when the mock refused it for its role (403): a role check that is not there. */
async function asAdminWhenForbidden(exchange: Exchange): Promise<Answer> {
  const upstream = await exchange.forward();
  if (upstream.status !== 403) return upstream;
  return exchange.forward({ headers: { ...exchange.headers, authorization: exchange.adminAuthorization } });
}

/** Per member and key, the first answer of a save made with an Idempotency-Key: what a server that ignores the body answers again. */
const firstAnswers = new Map<string, Answer>();

function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
  const body = Buffer.from(JSON.stringify(value));
  const out: Record<string, string> = { ...headers, 'content-type': 'application/json' };
  if (status !== 204 && status !== 304) out['content-length'] = String(body.length);
  else delete out['content-length'];
  return { status, headers: out, body };
}

function errorAnswer(status: number, message: string, headers: Record<string, string> = {}): Answer {
  return jsonAnswer(status, { status, error: REASONS[status] ?? 'Error', message }, headers);
}

/** A buffered body (an answer's, or a request's) read as JSON; undefined when it is none. */
function parseJson(message: { body: Buffer }): unknown {
  try {
    return JSON.parse(message.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answer with its JSON body replaced by `edit(body)`, when it has the given status. */
async function editJson(exchange: Exchange, status: number, edit: (body: unknown) => unknown): Promise<Answer> {
  const upstream = await exchange.forward();
  if (upstream.status !== status) return upstream;
  const body = parseJson(upstream);
  if (body === undefined) return upstream;
  return jsonAnswer(upstream.status, edit(body), upstream.headers);
}

/** The record's URL without the query: what a read of the same record asks. */
const recordUrl = (exchange: Exchange) => exchange.url.split('?')[0]!;

export const FAULTS = {
  'getAccount-missing-id': {
    operationId: 'getAccount',
    breaks: "the 200 body lacks the required 'id' (a serializer that skips the primary key)",
    answer: (ex) =>
      editJson(ex, 200, (body) => {
        if (!isObject(body)) return body;
        const { id: _id, ...rest } = body;
        return rest;
      }),
  },
  'listAccounts-balance-as-string': {
    operationId: 'listAccounts',
    breaks: "each item's 'balance' is a string (\"1250.5\"), the schema says number (a DECIMAL column sent as text)",
    answer: (ex) =>
      editJson(ex, 200, (body) =>
        Array.isArray(body) ? body.map((row: unknown) => (isObject(row) ? { ...row, balance: String(row.balance) } : row)) : body,
      ),
  },
  'createSubscription-202': {
    operationId: 'createSubscription',
    breaks: 'a create answers 202 Accepted, which is not documented (the success status is 201)',
    answer: async (ex) => {
      const upstream = await ex.forward();
      return upstream.status === 201 ? { ...upstream, status: 202 } : upstream;
    },
  },
  'getSymbol-text-plain': {
    operationId: 'getSymbol',
    breaks: 'the 200 JSON body is labelled Content-Type: text/plain, the contract documents application/json only',
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 200) return upstream;
      return { ...upstream, headers: { ...upstream.headers, 'content-type': 'text/plain; charset=utf-8' } };
    },
  },
  'getNotification-extra-property': {
    operationId: 'getNotification',
    breaks: "the 200 body carries an undocumented 'deletedAt' (an ORM column leaked) where Notification has unevaluatedProperties: false",
    answer: (ex) => editJson(ex, 200, (body) => (isObject(body) ? { ...body, deletedAt: null } : body)),
  },
  'createSymbol-500-on-invalid': {
    operationId: 'createSymbol',
    breaks: 'a body the schema rejects crashes the handler: 500 (undocumented for createSymbol) instead of 400',
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 400) return upstream;
      return errorAnswer(500, "Cannot read properties of undefined (reading 'toUpperCase')");
    },
  },
  'createNotification-accepts-incomplete': {
    operationId: 'createNotification',
    breaks: 'a JSON body missing required fields is completed with defaults and answered 201 instead of 400',
    answer: (ex) => {
      const body = parseJson(ex);
      if (!isObject(body)) return ex.forward();
      const defaults: Json = { title: 'Untitled', body: '', level: 'info', read: false, createdAt: new Date().toISOString() };
      const completed = { ...defaults, ...body };
      for (const key of Object.keys(defaults)) if (completed[key] === null) completed[key] = defaults[key];
      return ex.forward({ body: Buffer.from(JSON.stringify(completed)) });
    },
  },
  'replaceNotification-not-stored': {
    operationId: 'replaceNotification',
    breaks: 'PUT answers 200 with the new record but does not keep it: the next GET answers the old one (a transaction never committed)',
    answer: async (ex) => {
      const before = await ex.forward({ method: 'GET', url: recordUrl(ex), body: Buffer.alloc(0), headers: {} });
      const upstream = await ex.forward();
      if (before.status === 200 && upstream.status === 200) {
        // The old record put back by the backend itself, an admin's write.
        const headers = { 'content-type': 'application/json', authorization: ex.adminAuthorization };
        await ex.forward({ method: 'PUT', url: recordUrl(ex), body: before.body, headers });
      }
      return upstream;
    },
  },
  'deleteSubscription-keeps-record': {
    operationId: 'deleteSubscription',
    breaks: 'DELETE answers 204 but deletes nothing: the record is still readable and listed (a soft delete that never filters)',
    answer: async (ex) => {
      // Subscriptions are an admin's to read: the backend looks with its admin's token.
      const record = await ex.forward({
        method: 'GET',
        url: recordUrl(ex),
        body: Buffer.alloc(0),
        headers: { authorization: ex.adminAuthorization },
      });
      if (record.status !== 200) return ex.forward();
      return { status: 204, headers: {}, body: Buffer.alloc(0) };
    },
  },
  'listSubscriptions-drops-newest': {
    operationId: 'listSubscriptions',
    breaks: 'the list leaves out its last (newest) record (an off-by-one in paging): a created record is missing from the list',
    answer: (ex) => editJson(ex, 200, (body) => (Array.isArray(body) ? body.slice(0, -1) : body)),
  },
  'listNotifications-ignores-filters': {
    operationId: 'listNotifications',
    breaks: 'the list ignores its query (?level=, ?read=) and answers every notification: a filtered list holds records of another value',
    answer: (ex) => {
      const url = new URL(ex.url, 'http://backend');
      return ex.forward({ url: url.pathname });
    },
  },
  'getMyProfile-404-when-none': {
    operationId: 'getMyProfile',
    breaks: 'a member without a profile gets 404 (undocumented for getMyProfile) instead of 204',
    answer: async (ex) => {
      const upstream = await ex.forward();
      return upstream.status === 204 ? errorAnswer(404, 'Profile not found') : upstream;
    },
  },
  'getSubscription-error-body': {
    operationId: 'getSubscription',
    breaks:
      "the 404 body is a framework's default { statusCode, error, message }, which breaks the Error schema (no 'status', an unknown field)",
    answer: (ex) =>
      editJson(ex, 404, (body) => {
        if (!isObject(body)) return body;
        const { status, ...rest } = body;
        return { statusCode: status, ...rest };
      }),
  },
  'patchSymbol-accepted': {
    operationId: 'patchSymbol',
    breaks: 'PATCH is routed to the read handler and answers 200 with the record; the contract documents only 405',
    answer: (ex) => ex.forward({ method: 'GET', url: ex.url, body: Buffer.alloc(0), headers: {} }),
  },
  'createProfile-createdAt-not-date-time': {
    operationId: 'createProfile',
    breaks: "the 201 body's 'createdAt' is Date#toString() ('Mon Nov 23 2026 10:30:00 GMT+0000 ...'), not format: date-time",
    answer: (ex) =>
      editJson(ex, 201, (body) =>
        isObject(body) && typeof body.createdAt === 'string' ? { ...body, createdAt: new Date(body.createdAt).toString() } : body,
      ),
  },
  'deleteAccount-200-with-body': {
    operationId: 'deleteAccount',
    breaks: 'a delete answers 200 { "deleted": true }, which is not documented (the success status is 204, no body)',
    answer: async (ex) => {
      const upstream = await ex.forward();
      return upstream.status === 204 ? jsonAnswer(200, { deleted: true }, upstream.headers) : upstream;
    },
  },
  'listSymbols-duplicates': {
    operationId: 'listSymbols',
    breaks: 'every record is listed twice (a join that multiplies rows), so the list breaks maxItems: 3',
    answer: (ex) => editJson(ex, 200, (body) => (Array.isArray(body) ? [...body, ...body] : body)),
  },
  'createAccount-no-location': {
    operationId: 'createAccount',
    breaks: 'the 201 answer has no Location header, which the contract declares required',
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 201) return upstream;
      const { location: _location, ...headers } = upstream.headers;
      return { ...upstream, headers };
    },
  },
  'patchNotification-405-without-allow': {
    operationId: 'patchNotification',
    breaks: 'the 405 answer has no Allow header, which the contract declares required',
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 405) return upstream;
      const { allow: _allow, ...headers } = upstream.headers;
      return { ...upstream, headers };
    },
  },
  'getMyProfile-answers-without-token': {
    operationId: 'getMyProfile',
    breaks:
      'a request without any Authorization is answered as a member without a profile (204) instead of 401 (a security filter that lets anonymous requests through)',
    answer: async (ex) => (ex.headers.authorization === undefined ? { status: 204, headers: {}, body: Buffer.alloc(0) } : ex.forward()),
  },
  'getMyProfile-finds-token-anywhere': {
    operationId: 'getMyProfile',
    breaks:
      'a bearer token anywhere in Authorization is taken (a pattern without anchors): after another scheme (xBearer <token>) or before more text, where RFC 6750 sees no bearer credential',
    answer: async (ex) => {
      const found = /Bearer +([A-Za-z0-9\-._~+/]+=*)/i.exec(ex.headers.authorization ?? '');
      return ex.forward(found ? { headers: { ...ex.headers, authorization: `Bearer ${found[1]}` } } : undefined);
    },
  },
  'listNotifications-refuses-every-language': {
    operationId: 'listNotifications',
    breaks:
      "any Accept-Language is refused with 400 (the header's check is inverted): a client that names its language, as every browser does, gets no list",
    answer: async (ex) =>
      ex.headers['accept-language'] === undefined ? ex.forward() : errorAnswer(400, "header 'Accept-Language' is not a list of languages"),
  },
  'deleteProfile-empty-error-code': {
    operationId: 'deleteProfile',
    breaks:
      'the 401\'s challenge names its error with an empty value (error=""), which RFC 6750 does not allow: a client cannot tell an expired token from a malformed request',
    answer: async (ex) => {
      const upstream = await ex.forward();
      const challenge = upstream.headers['www-authenticate'];
      if (upstream.status !== 401 || challenge === undefined) return upstream;
      return { ...upstream, headers: { ...upstream.headers, 'www-authenticate': challenge.replace(/error="[^"]*"/, 'error=""') } };
    },
  },
  'deleteSubscription-takes-any-key': {
    operationId: 'deleteSubscription',
    breaks:
      "any well-formed Subscription-Key deletes the subscription (the key is checked for its form, never against the one its create answered): anyone can turn off another device's notifications",
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 403 || ex.headers['subscription-key'] === undefined) return upstream;
      return ex.forward({ headers: { ...ex.headers, authorization: ex.adminAuthorization } });
    },
  },
  'createSubscription-429-without-retry-after': {
    operationId: 'createSubscription',
    breaks:
      'the throttled create (429) says nothing of when to try again: no Retry-After, which the document requires, so a client can only guess and retry at once',
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 429) return upstream;
      const { 'retry-after': _dropped, ...headers } = upstream.headers;
      return { ...upstream, headers };
    },
  },
  'markNotificationRead-marks-nothing': {
    operationId: 'markNotificationRead',
    breaks:
      'marking a notification read stores nothing (the handler answers the unread count without writing the mark): it stays unread however often the member opens it',
    answer: async (ex) => {
      const count = ex.url.replace(/\/notifications\/[^/?]+\/read(\?.*)?$/, '/notifications/unread-count');
      // Without a token the operation still refuses the caller (401), as it did.
      if (count === ex.url || ex.headers.authorization === undefined) return ex.forward();
      const { 'content-type': _type, 'content-length': _length, ...headers } = ex.headers;
      const upstream = await ex.forward({ method: 'GET', url: count, headers, body: Buffer.alloc(0) });
      // An unknown notification still answers 404, as marking it would.
      const exists = await ex.forward({ method: 'GET', url: ex.url.replace(/\/read(\?.*)?$/, ''), headers, body: Buffer.alloc(0) });
      return exists.status === 404 ? exists : upstream;
    },
  },
  'updateProfile-challenge-names-no-error': {
    operationId: 'updateProfile',
    breaks:
      "a refused bearer token is told nothing of what is wrong with it (the 401's challenge is a bare Bearer realm, as for no token at all): a client cannot tell an expired token, to renew, from a revoked one, to sign in again",
    answer: async (ex) => {
      const upstream = await ex.forward();
      const challenge = upstream.headers['www-authenticate'];
      if (upstream.status !== 401 || challenge === undefined || ex.headers.authorization === undefined) return upstream;
      return { ...upstream, headers: { ...upstream.headers, 'www-authenticate': challenge.replace(/,\s*error=.*$/, '') } };
    },
  },
  'deleteSubscription-by-any-member': {
    operationId: 'deleteSubscription',
    breaks:
      "any signed-in member deletes any subscription (the handler checks that a token is there, not whose): one member can turn off another's notifications",
    answer: async (ex) => {
      const upstream = await ex.forward();
      const theirs = upstream.status === 403 && /belongs to another device/.test(upstream.body.toString('utf8'));
      if (!theirs || !/^Bearer /.test(ex.headers.authorization ?? '')) return upstream;
      return ex.forward({ headers: { ...ex.headers, authorization: ex.adminAuthorization } });
    },
  },
  'deleteSubscription-key-not-enough': {
    operationId: 'deleteSubscription',
    breaks:
      'the Subscription-Key its create answered does not let a device delete its own subscription: only a signed-in owner or an admin can, so a guest who turned notifications on can never turn them off',
    answer: async (ex) =>
      ex.headers.authorization === undefined && ex.headers['subscription-key'] !== undefined
        ? errorAnswer(403, 'Subscription belongs to another device: send its Subscription-Key')
        : ex.forward(),
  },
  'createSubscription-never-limits': {
    operationId: 'createSubscription',
    breaks:
      'anonymous creates are never limited (the limiter is never asked): one client can fill the collection, although x-rate-limit says 10 a minute',
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 429) return upstream;
      return ex.forward({ headers: { ...ex.headers, authorization: ex.adminAuthorization } });
    },
  },
  'patchSymbol-allow-run-together': {
    operationId: 'patchSymbol',
    breaks:
      "the 405's Allow joins the methods without their commas (GETPUTDELETE): it still matches the header's pattern, but names no method the resource serves",
    answer: async (ex) => {
      const upstream = await ex.forward();
      const allow = upstream.headers.allow;
      if (upstream.status !== 405 || allow === undefined) return upstream;
      return { ...upstream, headers: { ...upstream.headers, allow: allow.replace(/,\s*/g, '') } };
    },
  },
  'getMyProfile-answers-any-profile': {
    operationId: 'getMyProfile',
    breaks:
      "the member's own read answers the first stored profile, whoever owns it (the lookup never compares the profile's owner with the token's subject): a member without one is handed another member's",
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 204) return upstream;
      return ex.forward({ headers: { ...ex.headers, authorization: ex.ownerAuthorization } });
    },
  },
  'getMyProfile-takes-revoked-token': {
    operationId: 'getMyProfile',
    breaks:
      "a revoked access token is still taken (the server checks the token's signature and times, and never asks whether it was revoked): answered as the member it was issued to",
    answer: async (ex) => {
      const upstream = await ex.forward();
      const challenge = upstream.headers['www-authenticate'] ?? '';
      if (upstream.status !== 401 || !/revoked/.test(challenge)) return upstream;
      return ex.forward({ headers: { ...ex.headers, authorization: ex.ownerAuthorization } });
    },
  },
  'getMyProfile-takes-expired-token': {
    operationId: 'getMyProfile',
    breaks:
      "an expired access token is still taken (the server checks the token's signature and never its exp, or remembers a token it took once for good): answered as the member it was issued to",
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 401 || !/expired/.test(upstream.headers['www-authenticate'] ?? '')) return upstream;
      return ex.forward({ headers: { ...ex.headers, authorization: ex.ownerAuthorization } });
    },
  },
  'listSubscriptions-takes-token-for-another-api': {
    operationId: 'listSubscriptions',
    breaks:
      'an access token of the same provider for another API is taken (the server checks the issuer and the signature, never the audience): answered as the admin',
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 401 || !/not for this API/.test(upstream.headers['www-authenticate'] ?? '')) return upstream;
      return ex.forward({ headers: { ...ex.headers, authorization: ex.adminAuthorization } });
    },
  },
  'getProfileAvatar-takes-token-without-member': {
    operationId: 'getProfileAvatar',
    breaks:
      'an access token that names no member (no sub, or an empty one) is taken as long as it is signed and for this API: answered as a member',
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 401 || !/names no member/.test(upstream.headers['www-authenticate'] ?? '')) return upstream;
      return ex.forward({ headers: { ...ex.headers, authorization: ex.ownerAuthorization } });
    },
  },
  'getSubscription-refuses-two-spaces': {
    operationId: 'getSubscription',
    breaks:
      'Authorization is split on one space: `Bearer  <token>` (two spaces, a bearer credential by RFC 6750) leaves an empty token, and a valid request is refused with 401',
    answer: (ex) =>
      /^Bearer {2}/i.test(ex.headers.authorization ?? '')
        ? ex.forward({ headers: { ...ex.headers, authorization: 'Bearer' } })
        : ex.forward(),
  },
  'updateProfile-of-another-member': {
    operationId: 'updateProfile',
    breaks:
      "a member can update another member's profile (the handler loads the profile by id and never compares its owner with the token's subject)",
    answer: asOwnerWhenForbidden,
  },
  'getProfileAvatar-of-another-member': {
    operationId: 'getProfileAvatar',
    breaks: "a member can read another member's avatar (the image route checks only that the caller is signed in)",
    answer: asOwnerWhenForbidden,
  },
  'updateProfile-ignores-if-match': {
    operationId: 'updateProfile',
    breaks: 'If-Match is ignored: an update without it, or with a stale ETag, overwrites the profile (a lost update) instead of 428 or 412',
    answer: (ex) => ex.forward({ headers: { ...ex.headers, 'if-match': '*' } }),
  },
  'createSymbol-lets-members-write': {
    operationId: 'createSymbol',
    breaks:
      "a member who is no admin creates a record of a shared collection (the route checks that the caller is signed in, not the caller's role)",
    answer: asAdminWhenForbidden,
  },
  'updateProfile-reused-key-answers-first': {
    operationId: 'updateProfile',
    breaks:
      "an Idempotency-Key sent again with another body is answered with the first save's 200 and the new edit is dropped unseen, instead of 422",
    answer: async (ex) => {
      const key = ex.headers['idempotency-key'];
      const upstream = await ex.forward();
      if (key === undefined) return upstream;
      const id = `${ex.headers.authorization ?? ''} ${key}`;
      const first = firstAnswers.get(id);
      if (upstream.status === 422 && first) return first;
      if (upstream.status === 200 && !first) firstAnswers.set(id, upstream);
      return upstream;
    },
  },
  'listNotifications-oldest-first': {
    operationId: 'listNotifications',
    breaks: 'the list comes oldest first (an ORDER BY without DESC), where its x-sort says -createdAt: newest first',
    answer: (ex) =>
      editJson(ex, 200, (body) =>
        Array.isArray(body)
          ? [...body].sort(
              (a, b) => Date.parse(String(isObject(a) ? a.createdAt : '')) - Date.parse(String(isObject(b) ? b.createdAt : '')),
            )
          : body,
      ),
  },
  'createNotification-location-of-collection': {
    operationId: 'createNotification',
    breaks: "the 201's Location is the collection's URL, not the created record's (the id left out of a URL template)",
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 201 || !upstream.headers.location) return upstream;
      return { ...upstream, headers: { ...upstream.headers, location: upstream.headers.location.replace(/\/[^/]*$/, '') } };
    },
  },
  'replaceAccount-ignores-body-id': {
    operationId: 'replaceAccount',
    breaks: "a body whose id differs from the URL's is stored under the URL's id and answered 200, where x-body-id-matches-path says 400",
    answer: (ex) => {
      const body = parseJson(ex);
      if (!isObject(body) || body.id === undefined) return ex.forward();
      const id = decodeURIComponent(recordUrl(ex).split('/').pop()!);
      return ex.forward({ body: Buffer.from(JSON.stringify({ ...body, id })) });
    },
  },
  'createSubscription-id-from-count': {
    operationId: 'createSubscription',
    breaks: 'a record sent without an id gets the number of records plus one, not the next numeric id: below an id in use, or taken',
    answer: async (ex) => {
      const body = parseJson(ex);
      if (!isObject(body) || body.id !== undefined) return ex.forward();
      const listed = parseJson(
        await ex.forward({
          method: 'GET',
          url: recordUrl(ex),
          body: Buffer.alloc(0),
          headers: { ...ex.headers, authorization: ex.adminAuthorization },
        }),
      );
      if (!Array.isArray(listed)) return ex.forward();
      return ex.forward({ body: Buffer.from(JSON.stringify({ ...body, id: String(listed.length + 1) })) });
    },
  },
  'getMyProfile-no-etag': {
    operationId: 'getMyProfile',
    breaks: 'the 200 answer has no ETag, which the contract declares required (a client cannot send If-Match from its read)',
    answer: async (ex) => {
      const upstream = await ex.forward();
      if (upstream.status !== 200) return upstream;
      const { etag: _etag, ...headers } = upstream.headers;
      return { ...upstream, headers };
    },
  },
  'createSymbol-takes-cross-site': {
    operationId: 'createSymbol',
    breaks:
      "a request from another site's page without a bearer token is not refused (the server never looks at Origin or Sec-Fetch-Site), which x-cross-site-refusal says answers 403",
    answer: (ex) => {
      const { origin: _origin, 'sec-fetch-site': _site, ...headers } = ex.headers;
      return ex.forward({ headers });
    },
  },
  'createSubscription-needs-token': {
    operationId: 'createSubscription',
    breaks:
      'a create the document allows without credentials (a device stores its push subscription before any sign-in) answers 401 to one without a token',
    answer: async (ex) =>
      ex.headers.authorization === undefined
        ? errorAnswer(401, 'Sign in: this operation needs a bearer access token', { 'www-authenticate': 'Bearer realm="api"' })
        : ex.forward(),
  },
  'getNotification-one-language': {
    operationId: 'getNotification',
    breaks:
      'a notification is read in English whatever Accept-Language asks (the header is dropped before the lookup): the French text an admin wrote is never answered, and Content-Language says en',
    answer: async (ex) => {
      const { 'accept-language': _asked, ...headers } = ex.headers;
      return ex.forward({ headers });
    },
  },
  'markNotificationRead-stale-count': {
    operationId: 'markNotificationRead',
    breaks:
      'marking a notification read answers the unread count from before the mark (counted, then written): the bell shows one more than the list holds',
    answer: async (ex) => {
      const count = ex.url.replace(/\/notifications\/[^/?]+\/read(\?.*)?$/, '/notifications/unread-count');
      if (count === ex.url || ex.headers.authorization === undefined) return ex.forward();
      const { 'content-type': _type, 'content-length': _length, ...headers } = ex.headers;
      const before = await ex.forward({ method: 'GET', url: count, headers, body: Buffer.alloc(0) });
      const upstream = await ex.forward();
      return upstream.status === 200 && before.status === 200 ? { ...before, headers: upstream.headers } : upstream;
    },
  },
  'createSubscription-limits-early': {
    operationId: 'createSubscription',
    breaks: 'anonymous creates are refused after 5 a minute (a limit set at half its documented value): x-rate-limit promises a client 10',
    answer: async (ex) => {
      const now = Date.now();
      const recent = anonymousCreates.filter((t) => t > now - 60_000);
      if (ex.headers.authorization === undefined && recent.length >= 5)
        return errorAnswer(429, 'Too many push subscriptions stored from this client: try again in 60 s', { 'retry-after': '60' });
      const upstream = await ex.forward();
      if (ex.headers.authorization === undefined && upstream.status === 201) anonymousCreates.push(now);
      return upstream;
    },
  },
} satisfies Record<string, Fault>;

/** When the anonymous creates the early limit let through were made. */
const anonymousCreates: number[] = [];

export type FaultName = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];
