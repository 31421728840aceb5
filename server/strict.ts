/**
 * Strict mode of the Node server: every API exchange is judged against openapi.yaml before it is
 * answered, entirely by the shared reader (openapi-kit): the request by `OpenApiSpec.checkRequest`,
 * the answer by `OpenApiSpec.check`, the same judge of answers as the contract tests and verify.
 *
 * - The request is matched to an operation (method and path template). Its path and query
 *   parameters and its body (media type, JSON against the schema, multipart text fields against
 *   the form schema, file parts against the documented types and size) are checked.
 * - The answer is checked as the contract tests check one: a documented status, a documented
 *   media type, the body against its schema, required headers present, headers against their
 *   schemas, an Error body that agrees with its status.
 *
 * Who sent a request matters for the request half. The app's own requests come from the browser
 * (its pages or its service worker, whose User-Agent starts `Mozilla/`): one that breaks the
 * contract is a bug of the app, whatever the answer. Tests also call the API directly (Node's
 * fetch, Playwright's request context), sometimes with deliberately invalid requests: such a
 * request is conformant as long as it is refused with a documented answer, so from those only an
 * answer that accepts it (2xx) is flagged. Faults a test injects with `page.route` never reach
 * the server and are not judged here. The answer half is judged for every client.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { OpenApiSpec } from '../openapi-kit/index.ts';
import { loadSpec } from '../openapi-kit/node.ts';

export interface ApiExchange {
  method: string;
  /** The request target as received: path and query. */
  url: string;
  requestHeaders: IncomingHttpHeaders;
  /** The request body as received; null when the server refused it unread (too large). */
  requestBody: Uint8Array | null;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: Uint8Array;
}

export interface ExchangeReport {
  /** Exchanges matched to an operation of the contract and judged. */
  checked: number;
  /** One line per exchange that broke the contract, naming the operation and what broke. */
  violations: string[];
}

export interface ExchangeChecker {
  /** Judges one exchange; returns its violations (also kept for report()). */
  record(exchange: ApiExchange): Promise<string[]>;
  report(): ExchangeReport;
}

function fromBrowser(headers: IncomingHttpHeaders): boolean {
  return /^Mozilla\/\d/.test(String(headers['user-agent'] ?? ''));
}

/** `basePath` is where the contract's paths start on the server (`/api`). */
export function createExchangeChecker(basePath: string): ExchangeChecker {
  // No name for errors: loadSpec has already refused a document that is no OpenAPI document, naming its file.
  const spec = new OpenApiSpec(loadSpec());
  let checked = 0;
  const violations: string[] = [];

  const headersOf = (incoming: IncomingHttpHeaders) => {
    const out = new Headers();
    for (const [name, value] of Object.entries(incoming)) {
      if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    return out;
  };

  async function judge(exchange: ApiExchange): Promise<string | null | undefined> {
    const url = new URL(exchange.url, 'http://server');
    const pathname = url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname;
    const op = spec.match(exchange.method, pathname);
    const app = fromBrowser(exchange.requestHeaders);
    if (!op) {
      // A test may probe URLs outside the contract on purpose; the app must not.
      return app ? `${exchange.method} ${url.pathname}: the app called a URL that is no operation of the contract` : undefined;
    }
    const where = `${op.id} (${exchange.method} ${url.pathname}) answered ${exchange.status}`;
    const answer = { status: exchange.status, headers: new Headers(exchange.responseHeaders), body: exchange.responseBody };
    const broken = spec.check(op, answer).map((v) => v.message);
    const sent = await spec.checkRequest(op, {
      pathname,
      query: url.searchParams,
      contentType: exchange.requestHeaders['content-type'],
      body: exchange.requestBody,
      headers: headersOf(exchange.requestHeaders),
    });
    if (sent.length > 0 && app) broken.push(`the app's request breaks the contract: ${sent.join('; ')}`);
    else if (sent.length > 0 && exchange.status < 300) broken.push(`it accepted a request that breaks the contract: ${sent.join('; ')}`);
    return broken.length === 0 ? null : `${where}: ${broken.join('; ')}`;
  }

  return {
    async record(exchange) {
      let found: string | null | undefined;
      try {
        found = await judge(exchange);
      } catch (error) {
        found = `${exchange.method} ${exchange.url}: the exchange could not be checked: ${String(error)}`;
      }
      if (found === undefined) return [];
      checked++;
      if (found === null) return [];
      violations.push(found);
      return [found];
    },
    report: () => ({ checked, violations: [...violations] }),
  };
}
