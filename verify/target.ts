/**
 * The server under test: where each operation lives, and one way to send a request to it, with the
 * headers given on the command line added, at most --rate requests per second and --max-requests
 * in all. Every exchange is kept as sent and as answered, for the judge and the report.
 *
 * Credentials: a request goes as the member (the --header headers, by default), as nobody (none
 * of them: the 401 check) or as the other member (the --other-header headers: the 403 check). An
 * operation whose security names a role goes as the admin (--admin-header) when one is given.
 * Conditional requests: the last ETag the server answered the member is kept, and sent as
 * If-Match on every request of the member to an operation that requires If-Match, unless the
 * request sets its own (or asks for none, to check the 428).
 *
 * Requests go over kept-alive connections (node:http). A server may close an idle connection just
 * as the next request is written on it: that request then gets a reset before any byte of an
 * answer, and the server has processed nothing. Such a request is sent once more, on a new
 * connection, and is no failure; a reset on a new connection, or after part of an answer, is one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { OperationSpec } from '../openapi-kit/index.ts';
import {
  BudgetSpent,
  requiresIfMatch,
  resourceOf,
  SAFE_METHODS,
  type Credentials,
  type Exchange,
  type Outgoing,
  type Received,
  type SentRequest,
} from './exchange.ts';
import { percentEncode } from './generated-request.ts';
import { attempt, describeFetchError, NoAnswer, PACED_BODY_BYTES, serialise, type Wire } from './http-attempt.ts';
import type { Bases } from './request-wire.ts';

/** A stretch of the run with a time budget of its own (one operation's checks, one stateful model). */
interface TimeScope {
  at: number;
  why: string;
  spent: boolean;
}

export interface TargetOptions {
  baseUrl: string;
  headers?: Array<[string, string]>;
  /** The credentials of a second member (--other-header). */
  otherHeaders?: Array<[string, string]>;
  /** An admin's credentials (--admin-header). */
  adminHeaders?: Array<[string, string]>;
  /** Credentials the server must refuse, each one header (--refused-header). */
  refusedHeaders?: Array<[string, string]>;
  rate?: number;
  maxRequests?: number;
  timeoutMs?: number;
  /** Milliseconds the whole run may send for (clean-up excepted). */
  timeLimitMs?: number;
}

const REQUEST_TIMEOUT_MS = 10_000;

export class Target {
  readonly bases: Bases;
  private readonly injected: Array<[string, string]>;
  private readonly interval: number;
  private readonly maxRequests: number;
  private readonly timeoutMs: number;
  private next = 0;
  /** Requests sent, clean-up included. */
  sent = 0;
  /**
   * Per resource (see resourceOf), the requests sent with a method that is not safe, whatever their
   * answer: while its count stays, a conformant server's state of that resource has not changed.
   * Per resource, as resources run side by side (--concurrency) and a seed must replay each the same.
   */
  private readonly writes = new Map<string, number>();
  /**
   * When each operation carried out a request (a 2xx), by caller as the server sees it (`callerKey`):
   * what a stated rate limit counts (./rate-limits.ts).
   */
  readonly carriedOut = new Map<string, number[]>();
  /** Requests that got an answer. */
  private answered = 0;
  /** The request sent last, and whether it got an answer. */
  private last: { line: string; answered: boolean } | undefined;
  /** Set once the budget ran out: the request budget or the run's time. */
  budgetSpent = false;
  /** Why nothing more is sent, once budgetSpent. */
  stopReason = '';
  private readonly runDeadline: number;
  private readonly timeLimitMs: number;
  private readonly scopes = new AsyncLocalStorage<TimeScope>();
  /** Requests sent again because the server closed a kept-alive connection as they went out. */
  resends = 0;
  private readonly agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  /** The headers given on the command line. */
  get injectedHeaders(): ReadonlyArray<[string, string]> {
    return this.injected;
  }
  /** The other member's headers (--other-header); empty when none were given. */
  readonly otherHeaders: ReadonlyArray<[string, string]>;
  /** The admin's headers (--admin-header); empty when none were given. */
  readonly adminHeaders: ReadonlyArray<[string, string]>;
  /** Credentials the server must refuse (--refused-header), each sent alone as `refused N`. */
  readonly refusedHeaders: ReadonlyArray<[string, string]>;
  /**
   * The last ETag an answer to the member carried (where the document gives the answer one), null
   * after a delete: what a conditional change of theirs sends as If-Match.
   */
  etag: string | null = null;
  /** The same, per resource: operations on other resources may run side by side (--concurrency). */
  private readonly etags = new Map<string, string | null>();
  /** Every exchange, oldest first, for listeners (progress, tests). */
  onExchange: ((exchange: Exchange) => void) | undefined;

  constructor({
    baseUrl,
    headers = [],
    otherHeaders = [],
    adminHeaders = [],
    refusedHeaders = [],
    rate,
    maxRequests,
    timeoutMs = REQUEST_TIMEOUT_MS,
    timeLimitMs = Number.POSITIVE_INFINITY,
  }: TargetOptions) {
    this.timeLimitMs = timeLimitMs;
    this.runDeadline = Date.now() + timeLimitMs;
    const api = new URL(baseUrl);
    this.bases = { api: baseUrl.replace(/\/+$/, ''), root: api.origin };
    this.injected = headers;
    this.otherHeaders = otherHeaders;
    this.adminHeaders = adminHeaders;
    this.refusedHeaders = refusedHeaders;
    this.interval = rate ? 1000 / rate : 0;
    this.maxRequests = maxRequests ?? Number.POSITIVE_INFINITY;
    this.timeoutMs = timeoutMs;
  }

  /** The URL of an operation with its path parameters filled in (each %-encoded) and a query. */
  url(op: OperationSpec, params: Record<string, string> = {}, query: Array<[string, string]> = []): string {
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => percentEncode(params[name] ?? ''));
    const search = query.length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
    return `${op.root ? this.bases.root : this.bases.api}${path}${search}`;
  }

  private async pace(): Promise<void> {
    if (this.interval === 0) return;
    const now = Date.now();
    const at = Math.max(now, this.next);
    this.next = at + this.interval;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }

  /**
   * Sends one request. Throws BudgetSpent when --max-requests is reached, unless `essential`
   * (clean-up). A request that gets no answer is an exchange without a response, not an exception.
   */
  async send(op: OperationSpec | null, out: Outgoing, { essential = false } = {}): Promise<Exchange> {
    if (!essential) this.mayStillSend();
    await this.pace();
    this.sent++;
    if (!SAFE_METHODS.includes(out.method.toUpperCase())) {
      const resource = op ? resourceOf(op) : '';
      this.writes.set(resource, this.writesTo(resource) + 1);
    }
    const headers = new Headers(out.headers);
    const credentials = out.credentials ?? this.defaultCredentials(op);
    if (op && requiresIfMatch(op)) {
      if (out.ifMatch === null) headers.delete('if-match');
      else if (out.ifMatch !== undefined) headers.set('if-match', out.ifMatch);
      else if (!headers.has('if-match') && credentials === 'member') headers.set('if-match', this.etags.get(resourceOf(op)) ?? '*');
    }
    const own: Array<[string, string]> = [...headers.entries()];
    const injected = this.headersOf(credentials);
    for (const [name, value] of injected) headers.set(name, value);
    const wrap = out.wrap;
    if (wrap) {
      // A wrap of a header the credentials do not carry would send them valid, as they are.
      if (!injected.some(([name]) => name.toLowerCase() === wrap.name.toLowerCase()))
        throw new Error(`${credentials}'s credentials carry no ${wrap.name} header to send misplaced`);
      const value = headers.get(wrap.name)!;
      // Nor may a gap go missing: a value without a space would be sent as it is.
      if (wrap.gap !== undefined && !value.includes(' ')) throw new Error(`${credentials}'s ${wrap.name} has no space to widen`);
      const gapped = wrap.gap === undefined ? value : value.replace(' ', () => wrap.gap!);
      headers.set(wrap.name, `${wrap.before}${gapped}${wrap.after}`);
    }
    const authorization = headers.get('authorization');
    const request: SentRequest = {
      method: out.method,
      url: out.url,
      headers: own,
      injected: injected.map(([name]) => name),
      authorization: authorization === null ? 'none' : /^Bearer +[A-Za-z0-9\-._~+/]+=*$/i.test(authorization) ? 'bearer' : 'other',
      ...(credentials === 'member' ? {} : { credentials }),
      ...(wrap ? { wrapped: wrap } : {}),
      body: out.sent ?? { kind: 'none' },
    };
    const started = performance.now();
    let exchange: Exchange;
    // Whether this request reset a kept-alive connection before being sent again (see below).
    let reset = false;
    try {
      const bytes = await serialise(out, headers);
      const head: Record<string, string> = {};
      headers.forEach((value, name) => {
        head[name] = value;
      });
      if (bytes !== null) {
        // A stream has no length: it goes chunked.
        if (out.stream) head['transfer-encoding'] = 'chunked';
        else head['content-length'] = String(bytes.byteLength);
      }
      const wire: Wire = {
        method: out.method,
        url: new URL(out.url),
        headers: head,
        bytes,
        paced: bytes !== null && bytes.byteLength >= PACED_BODY_BYTES,
      };
      const agent = wire.url.protocol === 'https:' ? this.agents.https : this.agents.http;
      let response: Received;
      try {
        response = await attempt(wire, agent, this.timeoutMs);
      } catch (error) {
        if (!(error instanceof NoAnswer && error.resendable)) throw error;
        // The server closed the kept-alive connection as the request went out: it processed nothing.
        this.resends++;
        reset = true;
        response = await attempt(wire, false, this.timeoutMs);
      }
      exchange = { op, request, response, ms: performance.now() - started };
      this.answered++;
      if (op && response.status >= 200 && response.status < 300) {
        const key = callerKey(op, request);
        this.carriedOut.set(key, [...(this.carriedOut.get(key) ?? []), Date.now()]);
      }
      if (credentials === 'member') this.noteEtag(op, out.method, response);
    } catch (error) {
      exchange = { op, request, response: null, error: describeFetchError(error, this.timeoutMs), ms: performance.now() - started };
      // A server that answered before and now refuses connections has gone (crashed or stopped):
      // what is left is not exercised, rather than failed request by request.
      if (this.answered > 0 && exchange.error?.startsWith('ECONNREFUSED') && !this.budgetSpent) {
        // The request that took it down: this one when it reset its connection before the refusal
        // (it reached the server), else the one before when that one got no answer either.
        const line = `${out.method} ${out.url}`;
        const culprit = reset ? line : this.last && !this.last.answered ? this.last.line : null;
        this.stopReason = `the server stopped answering (connection refused)${culprit ? `; the last request it got, ${culprit}, went unanswered` : ` at ${line}`}`;
        this.budgetSpent = true;
      }
    }
    this.last = { line: `${out.method} ${out.url}`, answered: exchange.response !== null };
    this.onExchange?.(exchange);
    return exchange;
  }

  /** How many writes the resource has had (see writes). */
  writesTo(resource: string): number {
    return this.writes.get(resource) ?? 0;
  }

  /** Throws BudgetSpent when the request budget, the run's time or the current scope's time is spent. */
  private mayStillSend(): void {
    if (this.sent >= this.maxRequests) this.stop('the request budget (--max-requests) is spent');
    if (Date.now() >= this.runDeadline) this.stop(`the run's time limit (--time-limit ${this.timeLimitMs / 1000} s) was reached`);
    const scope = this.scopes.getStore();
    if (scope && Date.now() >= scope.at) {
      scope.spent = true;
      throw new BudgetSpent(scope.why);
    }
  }

  /** Why requests are refused right now (the run's budget or the current scope's), or null. */
  get refusing(): string | null {
    if (this.budgetSpent) return this.stopReason;
    const scope = this.scopes.getStore();
    return scope?.spent ? scope.why : null;
  }

  private stop(why: string): never {
    if (!this.budgetSpent) this.stopReason = why;
    this.budgetSpent = true;
    throw new BudgetSpent(this.stopReason);
  }

  /**
   * Runs `work` with a time budget of its own: once `ms` have passed, its requests throw BudgetSpent
   * (`why`) as a spent run budget does. Whether the budget ran out.
   */
  async within(ms: number, why: string, work: () => Promise<void>): Promise<boolean> {
    const scope: TimeScope = { at: Date.now() + ms, why, spent: false };
    await this.scopes.run(scope, work);
    return scope.spent;
  }

  /** The headers a request with these credentials carries. */
  headersOf(credentials: Credentials): ReadonlyArray<[string, string]> {
    if (credentials.startsWith('refused ')) {
      const header = this.refusedHeaders[Number(credentials.slice('refused '.length)) - 1];
      return header ? [header] : [];
    }
    return { member: this.injected, other: this.otherHeaders, admin: this.adminHeaders, none: [] }[
      credentials as 'member' | 'other' | 'admin' | 'none'
    ];
  }

  /** Whose credentials a request of `op` carries unless it says: the admin's where the operation needs a role and an admin was given. */
  defaultCredentials(op: OperationSpec | null): Credentials {
    return op && op.roles.length > 0 && this.adminHeaders.length > 0 ? 'admin' : 'member';
  }

  /** Keeps the ETag of an answer to the member that documents one; forgets it once a delete went through. */
  private noteEtag(op: OperationSpec | null, method: string, response: Received): void {
    if (!op) return;
    const tag = response.headers.get('etag');
    const documented = op.responses[String(response.status)]?.headers.some((h) => h.name.toLowerCase() === 'etag');
    let next: string | null | undefined;
    if (tag !== null && documented) next = tag;
    else if (method === 'DELETE' && requiresIfMatch(op) && response.status >= 200 && response.status < 300) next = null;
    if (next === undefined) return;
    this.etag = next;
    this.etags.set(resourceOf(op), next);
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** A JSON request (or none) to an operation, as the model and the fixtures send them. */
  json(
    op: OperationSpec,
    params: Record<string, string> = {},
    value?: unknown,
    {
      query = [],
      essential = false,
      credentials,
      headers = [],
    }: { query?: Array<[string, string]>; essential?: boolean; credentials?: Credentials; headers?: Array<[string, string]> } = {},
  ): Promise<Exchange> {
    const url = this.url(op, params, query);
    const as = credentials ? { credentials } : {};
    if (value === undefined)
      return this.send(
        op,
        { method: op.method, url, ...as, ...(headers.length > 0 ? { headers: new Headers(headers) } : {}) },
        { essential },
      );
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    return this.send(
      op,
      {
        method: op.method,
        url,
        headers: new Headers([...headers, ['content-type', 'application/json']]),
        body: bytes,
        sent: { kind: 'bytes', bytes, chunked: false },
        ...as,
      },
      { essential },
    );
  }
}

/**
 * Who a request's caller is to the server, per operation: the credentials when it carried a bearer
 * token, else nobody (a token misplaced or of another scheme is no credential, RFC 6750).
 */
export function callerKey(op: OperationSpec, request: Pick<SentRequest, 'authorization' | 'credentials'>): string {
  return `${op.id} ${request.authorization === 'bearer' ? (request.credentials ?? 'member') : 'none'}`;
}
