/**
 * Checking one request against what the document says of its operation: the path and query
 * parameters against their schemas, and the body (media type, `x-max-body-bytes`, JSON against its
 * schema, a multipart form's text fields against the form schema and its files by the documented
 * types and size). Strict mode of the Node server judges the app's requests with it.
 */
import { isJsonMedia, mediaTypeOf } from './document.ts';
import type { MediaSpec, OperationSpec } from './operations.ts';
import { escapeRegExp } from './path-match.ts';
import { decodeParam, repeats } from './parameters.ts';
import { mediaMatches } from './responses.ts';
import { describeProblem, type SchemaValidator } from './validator.ts';

/** A request as received, its path without the API base path. */
export interface RequestIn {
  pathname: string;
  query: URLSearchParams;
  contentType: string | null | undefined;
  /** The body as received; null when it was refused unread (too large): then it is not judged. */
  body: Uint8Array | null;
  /** The request's headers: their documented parameters and, for a secured operation, credentials are judged when given. */
  headers?: Headers;
}

/** The raw (still %-encoded) value of each path parameter of `op` in a concrete path, or null when the path is not the operation's. */
export function pathSegments(op: OperationSpec, pathname: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = escapeRegExp(op.path).replace(/\\\{([^}]+)\\\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const found = new RegExp(`^${pattern}$`).exec(pathname);
  return found ? Object.fromEntries(names.map((name, i) => [name, found[i + 1]!])) : null;
}

export class RequestChecker {
  private readonly validator: SchemaValidator;
  private readonly doc: unknown;

  constructor(validator: SchemaValidator, doc: unknown) {
    this.validator = validator;
    this.doc = doc;
  }

  private problem(pointer: string, value: unknown, label: string): string | null {
    const problems = this.validator.atPointer(pointer, value);
    return problems.length === 0 ? null : describeProblem(problems[0], label);
  }

  /** The ways a request breaks the document, in words; empty when it honours it. */
  async check(op: OperationSpec, request: RequestIn): Promise<string[]> {
    return [
      ...this.parameters(op, request.pathname, request.query),
      ...(request.headers ? this.headers(op, request.headers) : []),
      ...(await this.body(op, request.contentType, request.body)),
    ];
  }

  /** Header parameters (If-Match, Idempotency-Key…) against their schemas, and credentials on a secured operation. */
  headers(op: OperationSpec, headers: Headers): string[] {
    const out: string[] = [];
    for (const p of op.params) {
      if (p.in !== 'header') continue;
      const value = headers.get(p.name);
      if (value === null) {
        if (p.required) out.push(`header '${p.name}' is required`);
        continue;
      }
      const found = this.problem(p.pointer, value, `header '${p.name}'`);
      if (found) out.push(found);
    }
    if (op.secured && !headers.has('authorization')) out.push('the operation is secured and the request carries no Authorization');
    return out;
  }

  parameters(op: OperationSpec, pathname: string, query: URLSearchParams): string[] {
    const out: string[] = [];
    const segments = pathSegments(op, pathname) ?? {};
    for (const p of op.params) {
      if (p.in === 'path') {
        const raw = segments[p.name];
        if (raw === undefined) continue;
        let value: string;
        try {
          value = decodeURIComponent(raw);
        } catch {
          out.push(`path parameter '${p.name}' is no valid %-encoding: '${raw}'`);
          continue;
        }
        const found = this.problem(p.pointer, decodeParam(this.doc, p, [value]), `path parameter '${p.name}'`);
        if (found) out.push(found);
      } else if (p.in === 'query') {
        // One value, read as its schema's type; several only for an exploded array (./parameters.ts).
        const given = query.getAll(p.name);
        if (given.length === 0) {
          if (p.required) out.push(`query parameter '${p.name}' is required`);
        } else if (given.length > 1 && !repeats(this.doc, p)) {
          out.push(`query parameter '${p.name}' is given ${given.length} times`);
        } else {
          const found = this.problem(p.pointer, decodeParam(this.doc, p, given), `query parameter '${p.name}'`);
          if (found) out.push(found);
        }
      }
    }
    return out;
  }

  async body(op: OperationSpec, contentType: string | null | undefined, body: Uint8Array | null): Promise<string[]> {
    if (body === null) return [];
    if (!op.body) return body.byteLength > 0 ? ['a body was sent to an operation that takes none'] : [];
    if (body.byteLength === 0) return op.body.required ? ['the required body is missing'] : [];
    const media = mediaTypeOf(contentType);
    const documented = op.body.content[media];
    if (!documented) return [`Content-Type '${media}' is not one of ${Object.keys(op.body.content).join(', ')}`];
    const out: string[] = [];
    if (documented.maxBodyBytes !== undefined && body.byteLength > documented.maxBodyBytes) {
      out.push(`the body has ${body.byteLength} bytes, more than ${documented.maxBodyBytes}`);
    }
    // The media is multipart only when a Content-Type header named it.
    if (media === 'multipart/form-data') return [...out, ...(await this.form(documented, contentType!, body))];
    if (isJsonMedia(media)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
      } catch {
        return [...out, 'the body is not valid JSON'];
      }
      const found = this.problem(documented.pointer, parsed, 'body');
      if (found) out.push(found);
    }
    return out;
  }

  private async form(media: MediaSpec, contentType: string, body: Uint8Array): Promise<string[]> {
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
        // Stryker disable next-line ArrayDeclaration: readMedia gives every file field its types, so the fallback is never used
        const accepted = media.fileTypes[name] ?? [];
        if (!accepted.some((a) => mediaMatches(a, value.type.toLowerCase())))
          out.push(`file '${name}' is '${value.type}', not one of ${accepted.join(', ')}`);
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
    const found = this.problem(media.pointer, text, 'form');
    if (found) out.push(found);
    return out;
  }
}
