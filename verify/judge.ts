/**
 * The judge of one exchange: does the answer honour the document (openapi-kit's check: status,
 * Content-Type, required headers, body schema, Error body), and is its status one the document
 * gives for that kind of request?
 *
 * - a valid request: a documented 2xx, or a documented 4xx that can happen to valid input (404 for
 *   an id that does not exist, 405, 409, 422…), never 400, 413 or 415, which say the request is
 *   wrong, nor a status the expectation rules out (401 for an operation that needs no credentials);
 *   a 5xx only where the operation documents one;
 * - an invalid request: a documented 4xx (its body then is the documented Error), and, when the
 *   operation lists the status for what is wrong (413 for a body over its limit, 415 for a media
 *   type it does not list…), that status;
 * - a request the document says nothing about: any documented answer;
 * - an exact expectation (the stateful model): one of the statuses given.
 */
import { isJsonMedia, mediaTypeOf, responseFor, type OpenApiSpec, type OperationSpec, type Violation } from '../openapi-kit/index.ts';
import type { Exchange } from './exchange.ts';

/** Statuses that say the request itself is wrong: a valid request never gets them. */
export const CLIENT_FAULT_STATUSES: readonly number[] = [400, 411, 413, 414, 415, 431];

export type Expectation =
  /** `not`: statuses this valid request must not get either, and `because` says why. */
  | { kind: 'valid'; not?: { statuses: number[]; because: string } }
  | { kind: 'invalid'; why: string[]; statuses?: number[] }
  | { kind: 'unspecified' }
  | { kind: 'exact'; statuses: number[]; why: string };

/** What went wrong with one exchange, ready for a report. */
export interface Finding {
  title: string;
  violations: Violation[];
}

const excerpt = (bytes: Uint8Array, n = 300): string => {
  const text = new TextDecoder().decode(bytes.subarray(0, n * 4));
  return text.length > n ? `${text.slice(0, n)}…` : text;
};

/** The answer in one line: status, Content-Type, the start of the body. */
export function describeAnswer(exchange: Exchange): string {
  const r = exchange.response;
  if (!r) return `no answer: ${exchange.error ?? 'unknown error'}`;
  const type = r.headers.get('content-type');
  const body = r.body.byteLength === 0 ? '(no body)' : excerpt(r.body);
  return `${r.status} ${type ?? '(no Content-Type)'} ${body}`;
}

/** The ways an exchange breaks the document or the expectation; empty when it honours both. */
export function judge(spec: OpenApiSpec, op: OperationSpec, exchange: Exchange, expectation: Expectation): Finding[] {
  const r = exchange.response;
  if (!r) return [{ title: `no answer (${exchange.error ?? 'unknown error'})`, violations: [] }];
  const findings: Finding[] = [];
  const violations = spec.check(op, { status: r.status, headers: r.headers, body: r.body });
  if (violations.length > 0) {
    const first = violations[0]!;
    findings.push({
      title: first.kind === 'status' ? first.message : `the ${r.status} answer breaks the document: ${first.message}`,
      violations,
    });
  }
  const documented = responseFor(op, r.status) !== undefined;
  const status = r.status;
  if (status === 401) {
    const problem = challengeProblem(r.headers.get('www-authenticate'), exchange.request.authorization);
    if (problem) findings.push({ title: problem, violations: [] });
  }
  if (status === 405) {
    const problem = allowProblem(spec, op, r.headers.get('allow'));
    if (problem) findings.push({ title: problem, violations: [] });
  }
  switch (expectation.kind) {
    case 'valid':
      if (documented && CLIENT_FAULT_STATUSES.includes(status))
        findings.push({ title: `a valid request was refused with ${status}: ${errorMessage(exchange)}`, violations: [] });
      else if (expectation.not?.statuses.includes(status))
        findings.push({ title: `${expectation.not.because}, but it was answered ${status}: ${errorMessage(exchange)}`, violations: [] });
      break;
    case 'invalid': {
      const why = expectation.why.join('; ');
      // An operation that documents no 4xx has no other answer for a bad request than those it documents.
      const has4xx = op.statuses.some((s) => s.startsWith('4'));
      if (status < 300) findings.push({ title: `an invalid request was accepted (${status}): ${why}`, violations: [] });
      else if (status >= 500 && documented && has4xx)
        findings.push({ title: `an invalid request got ${status}, not a 4xx: ${why}`, violations: [] });
      else if (documented && status < 500 && expectation.statuses) {
        // Only a status the operation itself lists (as a code or its range) is named for the problem;
        // one that answers bad requests under `default` alone names none, and any documented 4xx fits.
        const named = expectation.statuses.filter((s) => op.statuses.includes(String(s)) || op.statuses.includes(`${String(s)[0]}XX`));
        const fits = [...named, ...invalidAlways(op)];
        if (named.length > 0 && !fits.includes(status))
          findings.push({
            title: `an invalid request got ${status}; the document gives ${named.join(' or ')} for it: ${why}`,
            violations: [],
          });
      }
      break;
    }
    case 'exact':
      if (!expectation.statuses.includes(status))
        findings.push({ title: `${expectation.why}: expected ${expectation.statuses.join(' or ')}, got ${status}`, violations: [] });
      break;
    case 'unspecified':
      break;
  }
  return findings;
}

/** A Bearer challenge's attributes that RFC 6750 §3 (with RFC 6749 A.7) writes as 1*NQSCHAR. */
const NQSCHAR_ATTRIBUTES = ['error', 'error_description', 'scope'];

/**
 * What is wrong with a 401's Bearer challenge, or null. Its `error`, `error_description` and `scope`,
 * when given, hold at least one character, all of them printable ASCII but `"` and `\` (RFC 6750 §3).
 * And, as RFC 6750 §3.1 asks (and the documents that cite it promise): a refused bearer token is told
 * what is wrong with it (an `error`); a request that sent no credentials at all is told none.
 */
export function challengeProblem(header: string | null, sent?: 'bearer' | 'none' | 'other'): string | null {
  if (header === null || !/(^|,)\s*Bearer(\s|$)/i.test(header)) return null;
  const error = /(?:^|[\s,])error\s*=/i.test(header);
  if (sent === 'bearer' && !error)
    return `the 401 to a bearer token names no error in its challenge (${JSON.stringify(header)}): RFC 6750 §3.1 asks for one, e.g. error="invalid_token"`;
  if (sent === 'none' && error)
    return `the 401 to a request without credentials names an error in its challenge (${JSON.stringify(header)}): RFC 6750 §3.1 asks for none, as nothing was wrong with a token`;
  for (const [, name, quoted, token] of header.matchAll(/(?:^|[\s,])([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))/g)) {
    const attribute = name!.toLowerCase();
    if (!NQSCHAR_ATTRIBUTES.includes(attribute)) continue;
    const value = (quoted ?? token ?? '').replace(/\\(.)/g, '$1');
    if (!/^[\x20\x21\x23-\x5B\x5D-\x7E]+$/.test(value))
      return `the 401's WWW-Authenticate gives ${attribute}=${JSON.stringify(value)}: RFC 6750 §3 wants one or more printable characters, without " or \\`;
  }
  return null;
}

/**
 * What is wrong with a 405's `Allow` (RFC 9110 10.2.1: the methods the resource supports, comma
 * separated), or null: each method it names must be one the document declares on the path with an
 * answer other than 405 (HEAD beside GET, and OPTIONS, go without saying), and the method refused
 * is not among them. A missing Allow is the document's check (a required header).
 */
export function allowProblem(spec: Pick<OpenApiSpec, 'operations'>, op: OperationSpec, allow: string | null): string | null {
  if (allow === null) return null;
  const served = spec.operations
    .filter((o) => o.path === op.path && o.statuses.some((s) => s !== '405'))
    .map((o) => o.method.toUpperCase());
  const named = allow
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const where = `the 405's Allow (${JSON.stringify(allow)})`;
  const declared = served.length > 0 ? served.join(', ') : 'none';
  for (const method of named) {
    if (method === 'OPTIONS' || (method === 'HEAD' && served.includes('GET'))) continue;
    if (method === op.method.toUpperCase()) return `${where} names ${method}, the method it refuses`;
    if (!served.includes(method))
      return `${where} names ${JSON.stringify(method)}, which the document does not serve on ${op.path} (it serves ${declared})`;
  }
  return null;
}

/**
 * Answers that fit any request the operation documents them for: 405 (the method is not supported
 * here at all) and, for an operation on a resource named in the path, 404 (there is none).
 */
function invalidAlways(op: OperationSpec): number[] {
  const out: number[] = [];
  if (op.statuses.includes('405')) out.push(405);
  if (op.statuses.includes('404') && op.params.some((p) => p.in === 'path')) out.push(404);
  return out;
}

/** The message of an Error body, or the start of the body. */
function errorMessage(exchange: Exchange): string {
  const r = exchange.response;
  if (!r) return '';
  if (isJsonMedia(mediaTypeOf(r.headers.get('content-type')))) {
    try {
      const parsed = JSON.parse(new TextDecoder().decode(r.body)) as { message?: unknown };
      if (typeof parsed.message === 'string') return parsed.message;
    } catch {
      // fall through to the excerpt
    }
  }
  return excerpt(r.body, 120);
}
