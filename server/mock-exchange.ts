/**
 * An exchange with the mock API (under /api/) or its control endpoints (under /__mock/): the body
 * read within the contract's largest limit, another site's change refused from the head alone, the
 * handlers' answer sent with the site's headers, the change saved before it leaves, strict mode's
 * judgement, and the journal.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getResponse } from 'msw';
import { CLIENT_HEADER, errorBody, refuseCrossSite, type Contract, type MockBackend } from '../mock-api/index.ts';
import type { FileStore } from './persist.ts';
import type { ExchangeChecker } from './strict.ts';

export const API_PREFIX = '/api/';
/** Past this many bytes of a body it has refused, the server stops reading and closes the connection. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/**
 * The body, or 'too-large' past `limit`. A body refused as too large is still read to its end
 * (RFC 9112 §9.6: a server closing a connection should first read what the client sends), so
 * that the client gets the 413 instead of a broken pipe; one too large even for that is cut off.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Counted as it arrives, declared or not: Node hands over exactly the declared length before 'end'.
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      else if (size > MAX_DISCARDED_BYTES) req.socket.destroy();
    });
    req.on('end', () => resolveBody(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface MockExchangeOptions {
  contract: Contract;
  backend: MockBackend;
  /** Strict mode's judge of every API exchange; null without strict mode. */
  checker: ExchangeChecker | null;
  /** Called with each violation strict mode finds, as it finds it. */
  onViolation?: ((message: string) => void) | undefined;
  /** Where the headers every answer carries come from (a deploy changes them). */
  site: { readonly headers: Record<string, string> };
  /** Writes the data to the store when an exchange changed it; throws when it cannot. */
  save(): void;
  store: FileStore | null;
  /** The store's file as the options named it, for the message of a failed save. */
  persistFile?: string | null | undefined;
}

export interface MockExchange {
  /**
   * Another site's change refused from the request's head alone (mock-api/handlers/gate.ts), so
   * that its body is never read, nor asked for with 100 Continue; null for any other request.
   */
  crossSiteRefusal(req: IncomingMessage, origin: string, pathname: string): Response | null;
  /** Answers a request under /api/ or /__mock/. */
  answerMock(req: IncomingMessage, res: ServerResponse, origin: string, pathname: string): Promise<void>;
}

export function createMockExchange(options: MockExchangeOptions): MockExchange {
  const { contract, checker, site, save, store } = options;
  const { journal, handlers } = options.backend;
  const maxBody = Math.max(
    ...contract.spec.operations.flatMap((op) => Object.values(op.body?.content ?? {}).map((m) => m.maxBodyBytes ?? 0)),
  );

  function crossSiteRefusal(req: IncomingMessage, origin: string, pathname: string): Response | null {
    if (!pathname.startsWith(API_PREFIX)) return null;
    // Stryker disable next-line StringLiteral: a request the HTTP server hands over always has its method
    const method = req.method ?? 'GET';
    const operation = contract.spec.match(method, pathname.slice(API_PREFIX.length - 1));
    if (!operation) return null;
    try {
      refuseCrossSite(new Request(new URL(req.url!, origin), { method, headers: req.headers as Record<string, string> }), operation);
      return null;
    } catch (refusal) {
      if (refusal instanceof Response) return refusal;
      throw refusal;
    }
  }

  async function answerMock(req: IncomingMessage, res: ServerResponse, origin: string, pathname: string) {
    const arrived = Date.now();
    const started = performance.now();
    const api = pathname.startsWith(API_PREFIX);
    const record = (status: number) => {
      if (!api) return;
      journal.record({
        // Stryker disable next-line StringLiteral: a request the HTTP server hands over always has its method
        method: req.method ?? 'GET',
        path: req.url ?? pathname,
        status,
        time: new Date(arrived).toISOString(),
        duration: Math.round((performance.now() - started) * 10) / 10,
      });
    };
    const refused = crossSiteRefusal(req, origin, pathname);
    const body = refused || req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req, maxBody);
    // Every answer leaves through here, so strict mode judges each one before the client sees it.
    const send = async (status: number, out: Record<string, string>, payload: Buffer) => {
      if (checker && api) {
        const problems = await checker.record({
          // Stryker disable next-line StringLiteral: a request the HTTP server hands over always has its method and URL
          method: req.method ?? 'GET',
          // Stryker disable next-line StringLiteral: as above
          url: req.url ?? '/',
          requestHeaders: req.headers,
          requestBody: body === 'too-large' || refused ? null : (body ?? new Uint8Array(0)),
          status,
          responseHeaders: out,
          responseBody: payload,
        });
        for (const problem of problems) options.onViolation?.(problem);
      }
      res.writeHead(status, out);
      // Node itself leaves the body out of an answer to HEAD, keeping the Content-Length it was given.
      res.end(payload);
      record(status);
    };
    if (refused) {
      const payload = Buffer.from(await refused.arrayBuffer());
      // Asked to confirm before the body is sent (Expect: 100-continue), the client sends none:
      // the connection closes after the answer. Otherwise the body, unread, is let through and dropped.
      const asked = /100-continue/i.test(req.headers.expect ?? '');
      const out = {
        ...site.headers,
        'content-type': 'application/json',
        'cache-control': 'no-store',
        'content-length': String(payload.length),
      };
      await send(refused.status, asked ? { ...out, connection: 'close' } : out, payload);
      if (!asked) void readBody(req, 0).catch(() => undefined);
      return;
    }
    if (body === 'too-large') {
      const tooLarge = Buffer.from(JSON.stringify(errorBody(413, 'The request body is too large')));
      await send(413, { ...site.headers, 'content-type': 'application/json', connection: 'close' }, tooLarge);
      return;
    }
    // The client's address comes from the connection, never from the request's own headers.
    const { [CLIENT_HEADER]: _claimed, ...sent } = req.headers;
    const request = new Request(new URL(req.url!, origin), {
      method: req.method,
      headers: { ...(sent as Record<string, string>), [CLIENT_HEADER]: req.socket.remoteAddress ?? '' },
      body: body && body.length > 0 ? new Uint8Array(body) : undefined,
    });
    const response = await getResponse(handlers, request);
    try {
      save();
    } catch (error) {
      // Stryker disable next-line OptionalChaining: save() only throws when there is a store
      console.error(`The data could not be written to ${store?.path}`, error);
      const failed = Buffer.from(
        JSON.stringify(errorBody(500, `The change could not be saved to ${options.persistFile}; see the mock's log`)),
      );
      await send(500, { ...site.headers, 'content-type': 'application/json' }, failed);
      return;
    }
    // Stryker disable next-line BlockStatement: unreachable, the handlers end with catch-alls under /api/ and /__mock/, the only paths sent here
    if (!response) {
      // Stryker disable next-line ObjectLiteral,StringLiteral: unreachable, as above
      await send(404, { ...site.headers, 'content-type': 'application/json' }, Buffer.from(JSON.stringify(errorBody(404, 'Not found'))));
      return;
    }
    if (response.type === 'error') {
      // A scenario's dropped connection: no answer at all.
      record(0);
      req.socket.destroy();
      return;
    }
    const out: Record<string, string> = { ...site.headers, 'cache-control': 'no-store' };
    response.headers.forEach((value, key) => {
      out[key] = value;
    });
    const payload = Buffer.from(await response.arrayBuffer());
    // writeHead() sends the head at once, so without a length Node falls back to chunked encoding
    // and a client cannot compute download progress. 204 and 304 must not carry one.
    if (response.status !== 204 && response.status !== 304) out['content-length'] = String(payload.length);
    await send(response.status, out, payload);
  }

  return { crossSiteRefusal, answerMock };
}
