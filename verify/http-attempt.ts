/**
 * One attempt at an HTTP exchange over node:http: the request's body serialised once (so that it
 * can be sent again), a large one sent in slices, the whole answer read; and why none came.
 */
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Outgoing, Received } from './exchange.ts';

/** Bodies from this size on are sent in slices, watching for an early answer (see attempt). */
export const PACED_BODY_BYTES = 256 * 1024;
const SLICE_BYTES = 64 * 1024;

/** Why an attempt got no answer: the cause, and whether it may be sent again. */
export class NoAnswer extends Error {
  /** The connection was a kept-alive one, reset before any byte of an answer came: nothing was processed. */
  readonly resendable: boolean;

  constructor(cause: unknown, resendable: boolean) {
    super('fetch failed', { cause });
    this.resendable = resendable;
  }
}

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** A request as it goes on the wire: its body serialised once, so that it can be sent again. */
export interface Wire {
  method: string;
  url: URL;
  headers: Record<string, string>;
  bytes: Uint8Array | null;
  /** Sent in slices, stopping once an answer arrives. */
  paced: boolean;
}

/**
 * The body's bytes, and the headers with the Content-Type a form's bytes use (its boundary); a
 * body of another kind keeps the Content-Type given, or gets its own when none is.
 */
export async function serialise(out: Outgoing, headers: Headers): Promise<Uint8Array | null> {
  if (out.body === undefined || out.body === null) return null;
  if (out.body instanceof Uint8Array) return out.body;
  const carrier = new Request('http://body.invalid/', { method: 'POST', body: out.body });
  const bytes = new Uint8Array(await carrier.arrayBuffer());
  const type = carrier.headers.get('content-type');
  if (type !== null && (out.body instanceof FormData || !headers.has('content-type'))) headers.set('content-type', type);
  return bytes;
}

function receivedHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    try {
      headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    } catch {
      // A value Headers refuses (Node's parser lets a few through): left out.
    }
  }
  return headers;
}

/**
 * Sends a request once and reads its whole answer. A large body is sent in slices, giving the
 * answer a chance to arrive between them, and sending stops once it has: a server may answer 413
 * as soon as it reads the headers and close the connection, and a client that keeps writing then
 * sees a reset instead of the answer.
 */
export function attempt(wire: Wire, agent: HttpAgent | false, timeoutMs: number): Promise<Received> {
  const send = wire.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Received>((resolve, reject) => {
    let answered = false;
    let settled = false;
    let socket: Socket | undefined;
    let readBefore = 0;
    const settle = (error: unknown, received?: Received) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (received) resolve(received);
      else reject(error);
    };
    const req = send(wire.url, { method: wire.method, headers: wire.headers, agent }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        settle(null, { status: res.statusCode ?? 0, headers: receivedHeaders(res), body: new Uint8Array(Buffer.concat(chunks)) }),
      );
      res.on('error', (error) => settle(new NoAnswer(error, false)));
      res.on('aborted', () => settle(new NoAnswer(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }), false)));
    });
    const timer = setTimeout(() => {
      settle(new NoAnswer(Object.assign(new Error('timeout'), { name: 'TimeoutError' }), false));
      req.destroy();
    }, timeoutMs);
    req.on('socket', (s: Socket) => {
      socket = s;
      readBefore = s.bytesRead;
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return settle(new NoAnswer(error, false));
      const nothingRead = socket !== undefined && socket.bytesRead === readBefore;
      settle(new NoAnswer(error, req.reusedSocket && nothingRead && RESET_CODES.has(error.code ?? '')));
    });
    if (wire.bytes === null) {
      req.end();
      return;
    }
    if (!wire.paced) {
      req.end(wire.bytes);
      return;
    }
    const bytes = wire.bytes;
    void (async () => {
      for (let at = 0; at < bytes.byteLength && !answered && !req.destroyed; at += SLICE_BYTES) {
        const ok = req.write(bytes.subarray(at, at + SLICE_BYTES));
        await new Promise<void>((next) => (ok ? setImmediate(next) : req.once('drain', () => next())));
      }
      if (!answered && !req.destroyed) req.end();
    })();
  });
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
