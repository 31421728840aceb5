/**
 * Dredd's hooks for Circle's API: each transaction gets the request of its plan (./dredd-plan.ts)
 * and the server the state it needs, through the API itself (a profile to read, room in a
 * collection); the ids the server gives are kept for the transactions that follow. Loaded by
 * ./dredd-hooks.cjs, Dredd's hook file; ./run.ts passes the server and the members' tokens in
 * CIRCLE_PEER_CONTEXT. The hooks assert nothing: what fails is what Dredd finds in an answer.
 */
import { randomUUID } from 'node:crypto';
import { makePng, OpenApiSpec, loadSpec, type OperationSpec } from '../../openapi-kit/node.ts';
import { callerFor, planStep, type Caller, type Step } from './dredd-plan.ts';

/** What ./run.ts hands the hooks. */
export interface PeerContext {
  /** The API base URL, e.g. `http://127.0.0.1:PORT/api`. */
  baseUrl: string;
  /** `Bearer …` of grace (member), linus (other) and ada (admin). */
  authorization: Record<Exclude<Caller, 'none'>, string>;
}

/** The parts of a Dredd transaction the hooks read and change. */
export interface Transaction {
  name: string;
  origin: { resourceName: string; exampleName: string };
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  fullPath: string;
  skip: boolean;
  fail?: string | boolean;
  real?: { statusCode: number; headers: Record<string, string>; body: string };
}

interface Hooks {
  beforeEach(hook: (transaction: Transaction, done: () => void) => void): void;
  afterEach(hook: (transaction: Transaction, done: () => void) => void): void;
}

/** A profile the hooks create when a transaction needs one: every field of the document's example, which Dredd expects. */
const PROFILE = {
  displayName: 'Grace Hopper',
  username: 'grace_h',
  email: 'grace@example.org',
  bio: 'Wrote the first compiler.',
  language: 'en',
  interests: ['compilers', 'navy'],
};
const MISSING_ID = 'no-such-record';

const header = (headers: Record<string, string>, name: string): string | undefined =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

function setHeader(headers: Record<string, string>, name: string, value: string | undefined): void {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
  if (value !== undefined) headers[name] = value;
}

/** The example body with one change: the first text field gets a suffix. */
function changed(body: Record<string, unknown>): Record<string, unknown> {
  const field = Object.keys(body).find((key) => typeof body[key] === 'string');
  return field ? { ...body, [field]: `${body[field] as string} 2` } : { ...body, bio: 'Another body' };
}

export function installHooks(hooks: Hooks, context: PeerContext, spec = new OpenApiSpec(loadSpec())): void {
  const base = new URL(context.baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  /** The record each collection's create answered in this run, by the collection's path. */
  const created = new Map<string, string>();
  /** The member's profile as last answered. */
  let profile: { id: string; etag: string | undefined } | undefined;
  /** The Idempotency-Key of each operation's last success. */
  const lastKey = new Map<string, string>();
  /** The Idempotency-Key of each transaction in flight, by name. */
  const sentKey = new Map<string, string>();

  const auth = (caller: Caller): Record<string, string> => (caller === 'none' ? {} : { Authorization: context.authorization[caller] });
  const call = (method: string, path: string, caller: Caller, init: { headers?: Record<string, string>; body?: BodyInit } = {}) =>
    fetch(`${base.origin}${basePath}${path}`, { method, headers: { ...auth(caller), ...init.headers }, body: init.body ?? null });

  const keepProfile = (status: number, headers: Headers | Record<string, string>, text: string) => {
    const etag = headers instanceof Headers ? (headers.get('etag') ?? undefined) : header(headers, 'etag');
    if (status === 204) profile = undefined;
    else if (status >= 200 && status < 300) {
      const id = (JSON.parse(text) as { id?: unknown }).id;
      if (typeof id === 'string') profile = { id, etag };
    }
  };

  async function ensureProfile(): Promise<void> {
    const read = await call('GET', '/user/profile/myprofile', 'member');
    keepProfile(read.status, read.headers, await read.text());
    if (profile) return;
    const made = await call('POST', '/user/profile', 'member', {
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify(PROFILE),
    });
    const text = await made.text();
    if (made.status !== 201) throw new Error(`creating the member's profile answered ${made.status}: ${text}`);
    keepProfile(made.status, made.headers, text);
  }

  async function setUp(step: Step, op: OperationSpec): Promise<void> {
    switch (step.before) {
      case 'profile':
        return ensureProfile();
      case 'no-profile': {
        const read = await call('GET', '/user/profile/myprofile', 'member');
        keepProfile(read.status, read.headers, await read.text());
        if (!profile) return;
        const gone = await call('DELETE', `/user/profile/${encodeURIComponent(profile.id)}`, 'member', { headers: { 'If-Match': '*' } });
        if (gone.status !== 204) throw new Error(`deleting the member's profile answered ${gone.status}`);
        profile = undefined;
        return;
      }
      case 'avatar': {
        await ensureProfile();
        const form = new FormData();
        form.set('avatar', new Blob([makePng(8, 8)], { type: 'image/png' }), 'avatar.png');
        const sent = await call('PATCH', `/user/profile/${encodeURIComponent(profile!.id)}`, 'member', {
          headers: { 'If-Match': profile!.etag ?? '*', 'Idempotency-Key': randomUUID() },
          body: form,
        });
        const text = await sent.text();
        if (sent.status !== 200) throw new Error(`uploading an avatar answered ${sent.status}: ${text}`);
        keepProfile(sent.status, sent.headers, text);
        return;
      }
      case 'room': {
        const collection = spec.collections.find((c) => c.path === op.path)!;
        if (collection.maxRecords === undefined) return;
        const list = await call('GET', collection.path, 'none');
        const records = (await list.json()) as Array<{ id: string }>;
        const last = records.at(-1);
        if (records.length < collection.maxRecords || !last) return;
        const gone = await call(
          'DELETE',
          `${collection.path}/${encodeURIComponent(last.id)}`,
          collection.remove ? callerFor(collection.remove) : 'admin',
        );
        if (gone.status !== 204) throw new Error(`making room in ${collection.path} answered ${gone.status}`);
        return;
      }
      default:
        return;
    }
  }

  function pathValue(step: Step, op: OperationSpec, current: string): string {
    const param = op.params.find((p) => p.in === 'path');
    switch (step.path) {
      case 'created': {
        const collection = spec.collections.find((c) => c.itemPath === op.path)!;
        const id = created.get(collection.path);
        if (id === undefined) throw new Error(`no record of ${collection.path} was created before this transaction`);
        return id;
      }
      case 'profile':
        return profile!.id;
      case 'missing':
        return MISSING_ID;
      case 'too-long':
        return 'x'.repeat(Number(param?.schema.maxLength ?? 1024) + 1);
      case 'unknown-command':
        return 'explode';
      default:
        return current;
    }
  }

  function shape(transaction: Transaction, step: Step, op: OperationSpec): void {
    const { request } = transaction;
    const [pathPart = '', query] = request.uri.split('?');
    const template = new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`);
    const current = decodeURIComponent(template.exec(pathPart)?.[1] ?? '');
    let path = op.path.replace(/\{[^}]+\}/, () => encodeURIComponent(pathValue(step, op, current)));
    if (step.repeatQuery) {
      const param = op.params.find((p) => p.in === 'query');
      if (param) {
        const value = encodeURIComponent(String((param.schema.enum as unknown[] | undefined)?.[0] ?? 'x'));
        path += `?${param.name}=${value}&${param.name}=${value}`;
      }
    } else if (query !== undefined) path += `?${query}`;
    request.uri = path;
    transaction.fullPath = step.root ? path : `${basePath}${path}`;

    const headers = request.headers;
    // Prefer is for mock servers only ("a real backend ignores it"); Dredd sends it empty.
    setHeader(headers, 'Prefer', undefined);
    setHeader(headers, 'Authorization', auth(step.caller).Authorization);
    for (const [name, value] of Object.entries(step.headers ?? {})) setHeader(headers, name, value);
    if (step.contentType) setHeader(headers, 'Content-Type', step.contentType);
    if (step.ifMatch) setHeader(headers, 'If-Match', { current: profile?.etag ?? '*', stale: '"stale"', absent: undefined }[step.ifMatch]);
    if (step.idempotencyKey) {
      const key = step.idempotencyKey === 'reuse' ? (lastKey.get(op.id) ?? randomUUID()) : randomUUID();
      setHeader(headers, 'Idempotency-Key', key);
      sentKey.set(transaction.name, key);
    }
    const body = step.body;
    if (body) {
      const example = (request.body ? JSON.parse(request.body) : {}) as Record<string, unknown>;
      const collection = spec.collections.find((c) => c.path === op.path || c.itemPath === op.path);
      request.body = {
        malformed: () => '{"',
        oversized: () => request.body + ' '.repeat(body.kind === 'oversized' ? body.bytes : 0),
        'other-id': () => JSON.stringify({ ...example, id: 'another-id' }),
        'existing-id': () => JSON.stringify({ ...example, id: created.get(collection?.path ?? '') ?? '1' }),
        changed: () => JSON.stringify(changed(example)),
      }[body.kind]();
    }
  }

  const operationOf = (transaction: Transaction) => spec.find(transaction.request.method, transaction.origin.resourceName);
  const statusOf = (transaction: Transaction) => transaction.origin.exampleName.split(' > ')[0]!;
  const responseMediaOf = (transaction: Transaction) => transaction.origin.exampleName.split(' > ')[1];

  hooks.beforeEach((transaction, done) => {
    const op = operationOf(transaction);
    if (!op) {
      transaction.fail = `no operation ${transaction.request.method} ${transaction.origin.resourceName} in the document`;
      done();
      return;
    }
    const step = planStep(
      spec,
      op,
      statusOf(transaction),
      header(transaction.request.headers, 'content-type'),
      responseMediaOf(transaction),
    );
    if (step.skip) {
      transaction.skip = true;
      done();
      return;
    }
    setUp(step, op)
      .then(() => shape(transaction, step, op))
      .catch((error: unknown) => {
        transaction.fail = error instanceof Error ? error.message : String(error);
      })
      .finally(done);
  });

  hooks.afterEach((transaction, done) => {
    const op = operationOf(transaction);
    const real = transaction.real;
    if (op && real && !transaction.skip) {
      try {
        const success = real.statusCode >= 200 && real.statusCode < 300;
        const key = sentKey.get(transaction.name);
        if (success && key !== undefined) lastKey.set(op.id, key);
        const collection = spec.collections.find((c) => c.path === op.path);
        if (collection && op.method === 'POST' && real.statusCode === 201) {
          const id = (JSON.parse(real.body) as { id?: unknown }).id;
          if (typeof id === 'string') created.set(collection.path, id);
        }
        if (/^\/user\/profile(\/|$)/.test(op.path) && op.id !== 'getProfileAvatar' && success)
          keepProfile(real.statusCode, real.headers, real.body);
      } catch {
        // An answer the hooks cannot read keeps nothing; Dredd judges the answer itself.
      }
    }
    done();
  });
}
