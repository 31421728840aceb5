/**
 * The server under test: where each operation lives, and one way to send a request to it, with the
 * headers given on the command line added, at most --rate requests per second and --max-requests
 * in all. Every exchange is kept as sent and as answered, for the judge and the report.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { OperationSpec } from '../../mocks/openapi/index.ts';
import type { Bases, SentBody } from '../support/generated-requests.ts';
import { percentEncode } from '../support/generated-requests.ts';

export interface SentRequest {
  method: string;
  url: string;
  /** The request's own headers (content type and the like); the injected ones are listed by name only. */
  headers: Array<[string, string]>;
  injected: string[];
  body: SentBody;
}

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

/** The request budget (--max-requests) is spent: nothing more is sent but clean-up. */
export class BudgetSpent extends Error {
  constructor() {
    super('the request budget (--max-requests) is spent');
  }
}

export interface TargetOptions {
  baseUrl: string;
  headers?: Array<[string, string]>;
  rate?: number;
  maxRequests?: number;
  timeoutMs?: number;
}

export interface Outgoing {
  method: string;
  url: string;
  headers?: Headers;
  body?: BodyInit;
  /** What the body was, for the record. */
  sent?: SentBody;
  /** Sent as a stream (Transfer-Encoding: chunked). */
  stream?: boolean;
}

const REQUEST_TIMEOUT_MS = 10_000;

/** Bodies from this size on are sent in slices, watching for an early answer (see sendPaced). */
const PACED_BODY_BYTES = 256 * 1024;
const SLICE_BYTES = 64 * 1024;

function sentSize(body: SentBody): number {
  if (body.kind === 'bytes') return body.bytes.byteLength;
  if (body.kind === 'form') return body.parts.reduce((n, p) => n + ('file' in p ? p.file.byteLength : p.value.length), 0);
  return 0;
}

/**
 * Sends a large body in slices, giving the answer a chance to arrive between them, and stops
 * sending once it has: a server may answer 413 as soon as it reads the headers and close the
 * connection, and a client that keeps writing then sees a reset instead of the answer.
 */
async function sendPaced(out: Outgoing, headers: Headers, timeoutMs: number): Promise<Received> {
  // Serialised without the request's headers: a form then gets the boundary its bytes use.
  const carrier = new Request(out.url, { method: 'POST', body: out.body ?? null });
  const bytes = new Uint8Array(await carrier.arrayBuffer());
  const head: Record<string, string> = {};
  headers.forEach((value, name) => {
    head[name] = value;
  });
  const serialised = carrier.headers.get('content-type');
  if (out.body instanceof FormData && serialised !== null) head['content-type'] = serialised;
  if (!out.stream) head['content-length'] = String(bytes.byteLength);
  const url = new URL(out.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Received>((resolve, reject) => {
    let answered = false;
    const req = send(url, { method: out.method, headers: head }, (res: IncomingMessage) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const received = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of [value].flat()) received.append(name, v);
        }
        resolve({ status: res.statusCode ?? 0, headers: received, body: new Uint8Array(Buffer.concat(chunks)) });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (error) => {
      if (!answered) reject(new Error('fetch failed', { cause: error }));
    });
    void (async () => {
      for (let at = 0; at < bytes.byteLength && !answered && !req.destroyed; at += SLICE_BYTES) {
        const ok = req.write(bytes.subarray(at, at + SLICE_BYTES));
        await new Promise<void>((next) => (ok ? setImmediate(next) : req.once('drain', () => next())));
      }
      if (!answered && !req.destroyed) req.end();
    })();
  });
}

export class Target {
  readonly bases: Bases;
  private readonly injected: Array<[string, string]>;
  private readonly interval: number;
  private readonly maxRequests: number;
  private readonly timeoutMs: number;
  private next = 0;
  /** Requests sent, clean-up included. */
  sent = 0;
  /** Set once the budget ran out. */
  budgetSpent = false;
  /** The headers given on the command line. */
  get injectedHeaders(): ReadonlyArray<[string, string]> {
    return this.injected;
  }
  /** Every exchange, oldest first, for listeners (progress, tests). */
  onExchange: ((exchange: Exchange) => void) | undefined;

  constructor({ baseUrl, headers = [], rate, maxRequests, timeoutMs = REQUEST_TIMEOUT_MS }: TargetOptions) {
    const api = new URL(baseUrl);
    this.bases = { api: baseUrl.replace(/\/+$/, ''), root: api.origin };
    this.injected = headers;
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
    if (!essential && this.sent >= this.maxRequests) {
      this.budgetSpent = true;
      throw new BudgetSpent();
    }
    await this.pace();
    this.sent++;
    const headers = new Headers(out.headers);
    const own: Array<[string, string]> = [...headers.entries()];
    for (const [name, value] of this.injected) headers.set(name, value);
    const request: SentRequest = {
      method: out.method,
      url: out.url,
      headers: own,
      injected: this.injected.map(([name]) => name),
      body: out.sent ?? { kind: 'none' },
    };
    let init: RequestInit = {
      method: out.method,
      headers,
      body: out.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(this.timeoutMs),
    };
    if (out.stream && out.body !== undefined) {
      // A stream has no length: fetch sends it chunked (and needs `duplex`, which the DOM types lack).
      const carrier = new Response(out.body, { headers });
      const type = carrier.headers.get('content-type');
      if (type !== null) headers.set('content-type', type);
      init = { ...init, headers, body: carrier.body, duplex: 'half' } as RequestInit;
    }
    const started = performance.now();
    let exchange: Exchange;
    try {
      if (out.body !== undefined && sentSize(request.body) >= PACED_BODY_BYTES) {
        const response = await sendPaced(out, headers, this.timeoutMs);
        exchange = { op, request, response, ms: performance.now() - started };
        this.onExchange?.(exchange);
        return exchange;
      }
      const response = await fetch(out.url, init);
      const body = new Uint8Array(await response.arrayBuffer());
      exchange = { op, request, response: { status: response.status, headers: response.headers, body }, ms: performance.now() - started };
    } catch (error) {
      exchange = { op, request, response: null, error: describeFetchError(error, this.timeoutMs), ms: performance.now() - started };
    }
    this.onExchange?.(exchange);
    return exchange;
  }

  /** A JSON request (or none) to an operation, as the model and the fixtures send them. */
  json(
    op: OperationSpec,
    params: Record<string, string> = {},
    value?: unknown,
    { query = [], essential = false }: { query?: Array<[string, string]>; essential?: boolean } = {},
  ): Promise<Exchange> {
    const url = this.url(op, params, query);
    if (value === undefined) return this.send(op, { method: op.method, url }, { essential });
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    return this.send(
      op,
      {
        method: op.method,
        url,
        headers: new Headers({ 'content-type': 'application/json' }),
        body: bytes,
        sent: { kind: 'bytes', bytes, chunked: false },
      },
      { essential },
    );
  }
}

/** Why no answer came, in one line: the cause's code (ECONNREFUSED, ENOTFOUND…) rather than "fetch failed". */
export function describeFetchError(error: unknown, timeoutMs: number): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string; name?: string } | undefined) : undefined;
  const timedOut = (e: { name?: string } | undefined) => e?.name === 'TimeoutError' || e?.name === 'AbortError';
  if ((error instanceof Error && timedOut(error)) || timedOut(cause)) return `no answer within ${timeoutMs / 1000} s`;
  if (cause?.code) return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** Parses a JSON body, or undefined. */
export function bodyJson(received: Received | null): unknown {
  if (!received || received.body.byteLength === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(received.body));
  } catch {
    return undefined;
  }
}
