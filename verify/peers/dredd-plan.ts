/**
 * What Dredd's hooks do to each transaction (verify/peers/dredd-hooks.ts carries it out). Dredd
 * makes one transaction per documented response of every operation, all with the same request
 * built from the document's examples; a backend developer's hooks then give each one the request
 * that gets that response: the caller's token, the id of a record that exists (or one that does
 * not), a body the server must refuse. The hooks only shape requests and the server's state
 * before them: what passes or fails is Dredd's own comparison of the answer with the document.
 *
 * Pure: the plan of a transaction from the document alone, so that it is tested without Dredd.
 */
import type { CollectionSpec, OpenApiSpec, OperationSpec } from '../../openapi-kit/index.ts';

/** Whose token goes in `Authorization`: grace (member), linus (another member), ada (admin), or none. */
export type Caller = 'member' | 'other' | 'admin' | 'none';

/** What the path's one parameter is set to. */
export type PathValue =
  /** The record this run created in the collection (its create's answer). */
  | 'created'
  /** The member's profile (its create's answer, or the one read before). */
  | 'profile'
  /** An id no record has. */
  | 'missing'
  /** A value over the parameter's maxLength. */
  | 'too-long'
  /** A command the server does not know. */
  | 'unknown-command';

export type BodyChange =
  /** Not JSON at all. */
  | { kind: 'malformed' }
  /** The example padded with spaces past the media type's x-max-body-bytes. */
  | { kind: 'oversized'; bytes: number }
  /** The example with an id other than the URL's. */
  | { kind: 'other-id' }
  /** The example with the id of the record this run created (which exists). */
  | { kind: 'existing-id' }
  /** The example with one field changed: another body for a repeated Idempotency-Key. */
  | { kind: 'changed' };

/** What is made true on the server before the request goes out, through the API itself. */
export type Setup =
  /** The member has a profile. */
  | 'profile'
  /** The member has no profile. */
  | 'no-profile'
  /** The member's profile has a PNG avatar. */
  | 'avatar'
  /** The collection has room for one more record (one is deleted when it is at its x-max-records). */
  | 'room';

export interface Step {
  /** Why the transaction is not sent; Dredd reports it skipped. */
  skip?: string;
  caller: Caller;
  /** An extra header (e.g. another site's Origin). */
  headers?: Record<string, string>;
  path?: PathValue;
  /** The request body changed from the document's example. */
  body?: BodyChange;
  contentType?: string;
  /** The list's first query parameter sent twice. */
  repeatQuery?: boolean;
  /** If-Match: the profile's current ETag, a stale one, or none (only on operations that take it). */
  ifMatch?: 'current' | 'stale' | 'absent';
  /** Idempotency-Key: a fresh one, or the one of this operation's last success (only on operations that take it). */
  idempotencyKey?: 'fresh' | 'reuse';
  before?: Setup;
  /** Sent to the origin's root rather than under the API base (`servers: [{ url: / }]`). */
  root?: boolean;
}

/** Another site, for the documented 403 of a change without a token from another site's page. */
export const OTHER_SITE = 'http://evil.example';

const PROFILE_PATH = /^\/user\/profile(\/|$)/;

/** The caller an operation's document asks for: the admin when its security names the role, a member when it needs a token. */
export function callerFor(op: OperationSpec): Caller {
  if (op.roles.includes('admin')) return 'admin';
  return op.secured ? 'member' : 'none';
}

function collectionOf(spec: OpenApiSpec, op: OperationSpec): { collection: CollectionSpec; item: boolean } | undefined {
  for (const collection of spec.collections) {
    if (op.path === collection.path) return { collection, item: false };
    if (op.path === collection.itemPath) return { collection, item: true };
  }
  return undefined;
}

const takes = (op: OperationSpec, header: string) => op.params.some((p) => p.in === 'header' && p.name.toLowerCase() === header);
const hasPathParam = (op: OperationSpec) => op.params.some((p) => p.in === 'path');
const isSuccess = (status: string) => /^2/.test(status);

/**
 * The plan of one Dredd transaction: operation, documented status, the request's media type (one
 * transaction per request media type the operation accepts) and the response's.
 */
export function planStep(spec: OpenApiSpec, op: OperationSpec, status: string, requestMedia?: string, responseMedia?: string): Step {
  const step: Step = { caller: callerFor(op) };
  if (op.root) {
    step.root = true;
    // Gavel compares Content-Type as a whole: `application/json; charset=utf-8` is no `application/json` to it.
    if (isSuccess(status))
      return {
        ...step,
        skip: 'a static file, served as application/json; charset=utf-8, which Dredd holds different from application/json',
      };
  }
  if (requestMedia === 'multipart/form-data') {
    return { ...step, skip: 'a multipart/form-data request: Dredd sends an empty body for it (the form has no example to build one from)' };
  }
  const inCollection = collectionOf(spec, op);
  const profile = PROFILE_PATH.test(op.path);
  const profileItem = profile && hasPathParam(op);
  if (takes(op, 'idempotency-key')) step.idempotencyKey = 'fresh';
  if (takes(op, 'if-match')) step.ifMatch = 'current';
  if (inCollection?.item) step.path = 'created';
  if (profileItem) {
    step.path = 'profile';
    step.before = 'profile';
  }
  const maxBodyBytes = op.body?.content['application/json']?.maxBodyBytes;

  if (isSuccess(status)) {
    if (op.id === 'getMyProfile') step.before = status === '204' ? 'no-profile' : 'profile';
    else if (profile && op.method === 'POST') step.before = 'no-profile';
    else if (op.id === 'getProfileAvatar') {
      if (responseMedia !== 'image/png') return { ...step, skip: `the avatar is one image: the PNG one is read, not ${responseMedia}` };
      step.before = 'avatar';
    } else if (inCollection && !inCollection.item && op.method === 'POST') step.before = 'room';
    return step;
  }

  switch (status) {
    case '400':
      if (inCollection && !inCollection.item && op.method === 'GET') return { ...step, repeatQuery: true };
      if (inCollection?.item && op.method === 'PUT') return { ...step, body: { kind: 'other-id' } };
      if (op.body) return { ...step, body: { kind: 'malformed' } };
      if (hasPathParam(op)) return { ...step, path: 'too-long' };
      break;
    case '401':
      return { ...step, caller: 'none' };
    case '403':
      if (op.roles.includes('admin')) return { ...step, caller: 'member' };
      if (profileItem) return { ...step, caller: 'other' };
      return { ...step, caller: 'none', headers: { Origin: OTHER_SITE } };
    case '404':
      if (hasPathParam(op)) {
        const { before: _, ...rest } = step;
        return { ...rest, path: 'missing' };
      }
      if (!op.statuses.some(isSuccess)) return step;
      return { ...step, skip: 'the resource is always there: nothing makes it answer 404' };
    case '405':
      if (!op.statuses.some(isSuccess)) return step;
      return { ...step, skip: 'the 405 is for methods the path does not document; Dredd sends the documented one' };
    case '409':
      if (inCollection) return { ...step, body: { kind: 'existing-id' } };
      if (profile) return { ...step, before: 'profile' };
      break;
    case '412':
      return { ...step, ifMatch: 'stale' };
    case '413':
      return { ...step, body: { kind: 'oversized', bytes: (maxBodyBytes ?? 1 << 20) + 1 } };
    case '415':
      return { ...step, contentType: 'text/plain' };
    case '422':
      if (profile) return { ...step, idempotencyKey: 'reuse', body: { kind: 'changed' } };
      if (inCollection && (inCollection.collection.maxRecords ?? Number.POSITIVE_INFINITY) <= 10) return step;
      if (inCollection) {
        return {
          ...step,
          skip: `reaching x-max-records (${inCollection.collection.maxRecords}) takes that many creates first: not set up`,
        };
      }
      break;
    case '428':
      return { ...step, ifMatch: 'absent' };
    case '500':
      if (op.id === 'runCommand') return { ...step, path: 'unknown-command' };
      break;
  }
  return { ...step, skip: `no request of this API is known to get its documented ${status}` };
}
