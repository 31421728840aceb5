/**
 * What verify sends to the server under test and what comes back, as the judge, the report and the
 * models read them: a request as sent (its credentials named, not shown), an answer, the exchange
 * of both; the budget that stops sending; and the small helpers every sender shares (the resource
 * an operation acts on, whether it needs If-Match, a JSON request, a JSON answer's value).
 */
import type { OperationSpec } from '../openapi-kit/index.ts';
import type { SentBody } from './request-wire.ts';

export interface SentRequest {
  method: string;
  url: string;
  /** The request's own headers (content type and the like); the injected ones are listed by name only. */
  headers: Array<[string, string]>;
  injected: string[];
  /** Whose credentials the injected headers were, when not the member's (--header). */
  credentials?: Credentials;
  /** An injected header sent inside other text: a credential misplaced on purpose. */
  wrapped?: CredentialWrap;
  /**
   * What the request's Authorization carried, as sent: a Bearer credential (RFC 6750 §2.1, `Bearer`,
   * spaces, a b64token), nothing at all, or something else. A 401's challenge answers each its own way.
   */
  authorization?: 'bearer' | 'none' | 'other';
  body: SentBody;
}

/**
 * Text put around the value of one of the injected headers (`name`): the member's own bearer token
 * after another scheme, or before trailing text, which the server must refuse as no token at all;
 * or, with `gap`, another space between its scheme and the token, which it must take as the token.
 * The report still shows the value by its variable only.
 */
export interface CredentialWrap {
  name: string;
  before: string;
  after: string;
  /** What stands in the place of the value's first space (between `Bearer` and the token). */
  gap?: string;
}

/**
 * Whose credentials a request carries: the member's (--header), none, the other member's
 * (--other-header), the admin's (--admin-header), or the Nth of those the server must refuse
 * (--refused-header, from 1).
 */
export type Credentials = 'member' | 'none' | 'other' | 'admin' | `refused ${number}`;

export interface Received {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

export interface Exchange {
  op: OperationSpec | null;
  request: SentRequest;
  /** null when no answer came (refused connection, reset, timeout): `error` says what happened. */
  response: Received | null;
  error?: string;
  ms: number;
}

/**
 * Nothing more is sent but clean-up: the request budget (--max-requests) or the run's time
 * (--time-limit) is spent, or, for the operation at hand only, its time (--operation-timeout).
 */
export class BudgetSpent extends Error {
  constructor(why = 'the request budget (--max-requests) is spent') {
    super(why);
  }
}

/** The statuses an operation documents for success, as numbers (`2XX` ranges and `default` left out). */
export const successStatuses = (op: OperationSpec): number[] => op.statuses.filter((s) => /^2\d\d$/.test(s)).map(Number);

export interface Outgoing {
  method: string;
  url: string;
  headers?: Headers;
  body?: BodyInit;
  /** What the body was, for the record. */
  sent?: SentBody;
  /** Sent as a stream (Transfer-Encoding: chunked). */
  stream?: boolean;
  /** Whose credentials go with it (default: the admin's for an operation that needs a role and an admin was given, else the member's). */
  credentials?: Credentials;
  /** One of those credentials' headers wrapped in other text (see CredentialWrap). */
  wrap?: CredentialWrap;
  /**
   * If-Match for an operation that requires it: a value, null for none at all; left out, the
   * member's last ETag (see Target.etag).
   */
  ifMatch?: string | null;
}

/**
 * The resource an operation acts on: the first segment of its path (`/pets/{id}` and
 * `/pets` are one, `/shop/orders/{id}` is `shop`). Operations on one resource share its
 * records and ETags, so they run one after the other; other resources may run alongside.
 */
export const resourceOf = (op: Pick<OperationSpec, 'path'>): string => op.path.split('/').find(Boolean) ?? '';

/** Whether an operation requires an If-Match header (a conditional change, RFC 9110 13.1.1). */
export const requiresIfMatch = (op: OperationSpec): boolean =>
  op.params.some((p) => p.in === 'header' && p.required && p.name.toLowerCase() === 'if-match');

/** A JSON request to `url`, recorded byte for byte. */
export function jsonRequest(method: string, url: string, value: unknown): Outgoing {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return {
    method,
    url,
    headers: new Headers({ 'content-type': 'application/json' }),
    body: bytes,
    sent: { kind: 'bytes', bytes, chunked: false },
  };
}

/** The methods that change nothing on the server (RFC 9110 §9.2.1). */
export const SAFE_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS', 'TRACE'];

/** Parses a JSON body, or undefined. */
export function bodyJson(received: Received | null): unknown {
  if (!received || received.body.byteLength === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(received.body));
  } catch {
    return undefined;
  }
}
