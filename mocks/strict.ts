/**
 * Strict mode of the Node server: every API exchange is judged against openapi.yaml before it is
 * answered, with the shared reader (mocks/openapi).
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
import { describeProblem, isJsonMedia, mediaTypeOf, OpenApiSpec, type MediaSpec, type OperationSpec } from './openapi/index.ts';
import { loadSpec } from './spec.node.ts';

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

const fromBrowser = (headers: IncomingHttpHeaders) => /^Mozilla\/\d/.test(String(headers['user-agent'] ?? ''));

/** `basePath` is where the contract's paths start on the server (`/api`). */
export function createExchangeChecker(basePath: string): ExchangeChecker {
  const spec = new OpenApiSpec(loadSpec(), { name: 'openapi.yaml' });
  let checked = 0;
  const violations: string[] = [];

  const problem = (pointer: string, value: unknown, label: string): string | null => {
    const problems = spec.validator.atPointer(pointer, value);
    return problems.length === 0 ? null : describeProblem(problems[0], label);
  };

  function checkParameters(op: OperationSpec, pathname: string, query: URLSearchParams): string[] {
    const out: string[] = [];
    const names: string[] = [];
    const pattern = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const segments = new RegExp(`^${pattern}$`).exec(pathname)?.slice(1) ?? [];
    for (const p of op.params) {
      if (p.in === 'path') {
        const raw = segments[names.indexOf(p.name)];
        if (raw === undefined) continue;
        let value: string;
        try {
          value = decodeURIComponent(raw);
        } catch {
          out.push(`path parameter '${p.name}' is no valid %-encoding: '${raw}'`);
          continue;
        }
        const found = problem(p.pointer, value, `path parameter '${p.name}'`);
        if (found) out.push(found);
      } else if (p.in === 'query') {
        // Every query parameter of this contract is one plain string (form style, no arrays).
        const given = query.getAll(p.name);
        if (given.length === 0) {
          if (p.required) out.push(`query parameter '${p.name}' is required`);
        } else if (given.length > 1) {
          out.push(`query parameter '${p.name}' is given ${given.length} times`);
        } else {
          const found = problem(p.pointer, given[0], `query parameter '${p.name}'`);
          if (found) out.push(found);
        }
      }
    }
    return out;
  }

  async function checkMultipart(media: MediaSpec, contentType: string, body: Uint8Array): Promise<string[]> {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
    } catch {
      return ['the body is not valid multipart/form-data'];
    }
    const out: string[] = [];
    const text: Record<string, string> = {};
    const seen = new Set<string>();
    for (const [name, value] of form) {
      if (seen.has(name)) out.push(`form field '${name}' is given more than once`);
      seen.add(name);
      if (media.fileFields.includes(name)) {
        if (typeof value === 'string') {
          out.push(`form field '${name}' is text, not a file`);
          continue;
        }
        const accepted = media.fileTypes[name] ?? [];
        const type = value.type.toLowerCase();
        if (!accepted.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))))) {
          out.push(`file '${name}' is '${value.type}', not one of ${accepted.join(', ')}`);
        }
        const max = media.maxFileBytes[name];
        if (max !== undefined && value.size > max) out.push(`file '${name}' has ${value.size} bytes, more than ${max}`);
      } else if (typeof value !== 'string') {
        out.push(`form field '${name}' is a file`);
      } else {
        text[name] = value;
      }
    }
    // File fields are left out of the value: the schema's other rules (required text fields,
    // lengths, patterns, no unknown field) apply to the text fields as sent.
    const found = problem(media.pointer, text, 'form');
    if (found) out.push(found);
    return out;
  }

  async function checkBody(op: OperationSpec, headers: IncomingHttpHeaders, body: Uint8Array | null): Promise<string[]> {
    if (body === null) return [];
    if (!op.body) return body.byteLength > 0 ? ['a body was sent to an operation that takes none'] : [];
    if (body.byteLength === 0) return op.body.required ? ['the required body is missing'] : [];
    const contentType = String(headers['content-type'] ?? '');
    const media = mediaTypeOf(contentType);
    const documented = op.body.content[media];
    if (!documented) return [`Content-Type '${media}' is not one of ${Object.keys(op.body.content).join(', ')}`];
    const out: string[] = [];
    if (documented.maxBodyBytes !== undefined && body.byteLength > documented.maxBodyBytes) {
      out.push(`the body has ${body.byteLength} bytes, more than ${documented.maxBodyBytes}`);
    }
    if (media === 'multipart/form-data') return [...out, ...(await checkMultipart(documented, contentType, body))];
    if (isJsonMedia(media)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
      } catch {
        return [...out, 'the body is not valid JSON'];
      }
      const found = problem(documented.pointer, parsed, 'body');
      if (found) out.push(found);
    }
    return out;
  }

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
    const sent = [
      ...checkParameters(op, pathname, url.searchParams),
      ...(await checkBody(op, exchange.requestHeaders, exchange.requestBody)),
    ];
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
