import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Middleware } from 'openapi-fetch';
import { parse } from 'yaml';
import { SPEC_FILE } from './prism.ts';

/** The parts of openapi.yaml the contract tests read. */
interface Reference {
  $ref: string;
}
interface MediaTypeObject {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown } | Reference>;
}
interface HeaderObject {
  schema?: unknown;
}
interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | Reference>;
  content?: Record<string, MediaTypeObject>;
}
interface OperationObject {
  operationId?: string;
  responses?: Record<string, ResponseObject | Reference>;
}
interface Document {
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, unknown>;
    responses?: Record<string, ResponseObject>;
    headers?: Record<string, HeaderObject>;
    examples?: Record<string, { value?: unknown }>;
  };
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Operation {
  readonly id: string;
  /** Upper case, as in a Request. */
  readonly method: string;
  /** The path template as written in openapi.yaml, e.g. `/symbols/{id}`. */
  readonly path: string;
  /** Documented status codes, as written (`'200'`, `'404'`). */
  readonly statuses: readonly string[];
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/** Prism marks its own answers (violations, unmatched routes, upstream failures) with this type. */
export const PRISM_ERROR_TYPE = 'https://stoplight.io/prism/errors';

const isRef = (value: unknown): value is Reference =>
  typeof value === 'object' && value !== null && typeof (value as Reference).$ref === 'string';

export const mediaTypeOf = (headers: Headers) => (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
const isJson = (media: string) => media === 'application/json' || media.endsWith('+json');

export class Contract {
  readonly doc: Document;
  readonly operations: readonly Operation[];
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(file = SPEC_FILE) {
    this.doc = parse(readFileSync(file, 'utf8')) as Document;
    const operations: Operation[] = [];
    for (const [path, item] of Object.entries(this.doc.paths)) {
      for (const method of HTTP_METHODS) {
        const op = item[method] as OperationObject | undefined;
        if (!op) continue;
        if (!op.operationId) throw new Error(`openapi.yaml: ${method.toUpperCase()} ${path} has no operationId`);
        operations.push({ id: op.operationId, method: method.toUpperCase(), path, statuses: Object.keys(op.responses ?? {}) });
      }
    }
    this.operations = operations;
    this.ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: this.doc.components });
  }

  get operationIds(): string[] {
    return this.operations.map((op) => op.id).sort();
  }

  byId(id: string): Operation {
    const op = this.operations.find((o) => o.id === id);
    if (!op) throw new Error(`openapi.yaml has no operation '${id}'`);
    return op;
  }

  /** The operation for a method and a path template (openapi-fetch's `schemaPath`). */
  find(method: string, template: string): Operation | undefined {
    return this.operations.find((o) => o.method === method.toUpperCase() && o.path === template);
  }

  /** The operation a concrete path (without the API base path) reaches; literal paths win over templates. */
  match(method: string, pathname: string): Operation | undefined {
    const candidates = this.operations
      .filter((o) => o.method === method.toUpperCase())
      .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
    return candidates.find((o) => {
      const pattern = o.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      return new RegExp(`^${pattern}$`).test(pathname);
    });
  }

  private operationObject(op: Operation): OperationObject {
    return this.doc.paths[op.path]![op.method.toLowerCase()] as OperationObject;
  }

  private deref<T>(value: T | Reference): T {
    if (!isRef(value)) return value;
    const parts = value.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
    let node: unknown = this.doc;
    for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
    if (node === undefined) throw new Error(`openapi.yaml: unresolved ${value.$ref}`);
    return this.deref(node as T | Reference);
  }

  /** The documented response for a status (or `default`), references resolved. */
  response(op: Operation, status: number | string): ResponseObject | undefined {
    const responses = this.operationObject(op).responses ?? {};
    const raw = responses[String(status)] ?? responses.default;
    return raw === undefined ? undefined : this.deref(raw);
  }

  /** What Prism's mock answers a valid request with: the lowest documented 2xx, else the only code. */
  mockStatus(op: Operation): number {
    const codes = op.statuses
      .filter((s) => /^\d{3}$/.test(s))
      .map(Number)
      .sort((a, b) => a - b);
    const success = codes.find((c) => c >= 200 && c < 300);
    if (success !== undefined) return success;
    if (codes.length !== 1) throw new Error(`${op.id}: no 2xx and ${codes.length} other codes: which would Prism pick?`);
    return codes[0]!;
  }

  /** The first example documented for a status and media type, as Prism's static mock answers it. */
  example(op: Operation, status: number, media = 'application/json'): { found: true; value: unknown } | { found: false } {
    const content = this.response(op, status)?.content?.[media];
    if (!content) return { found: false };
    const first = content.examples ? Object.values(content.examples)[0] : undefined;
    if (first !== undefined) {
      const resolved = this.deref(first);
      if ('value' in resolved) return { found: true, value: resolved.value };
    }
    if ('example' in content) return { found: true, value: content.example };
    return { found: false };
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    let fn = this.validators.get(key);
    if (!fn) {
      fn = this.ajv.compile(rebase(schema) as object);
      this.validators.set(key, fn);
    }
    return fn;
  }

  /** Validates a value against `components.schemas[name]`: the problems, empty when valid. */
  checkSchema(name: string, value: unknown): string[] {
    const fn = this.validator(`schema:${name}`, { $ref: `#/components/schemas/${name}` });
    return fn(value) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
  }

  /**
   * Checks one answer against the contract: the status is documented, the media type is one the
   * response lists, a JSON body validates against its schema, documented headers that are present
   * validate against theirs. Also flags any answer Prism made up itself (a violation, an unmatched
   * route, an upstream failure). Returns the problems, empty when the answer honours the contract.
   */
  checkAnswer(op: Operation, answer: Answer): string[] {
    const where = `${op.id} (${op.method} ${op.path}) answered ${answer.status}`;
    const problems: string[] = [];
    const media = mediaTypeOf(answer.headers);
    const text = new TextDecoder().decode(answer.body);
    let parsed: unknown;
    if (isJson(media) || media === 'application/problem+json') {
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        problems.push(`${where}: the body is not JSON although it says ${media}: ${text.slice(0, 200)}`);
      }
    }
    const prism = prismProblem(parsed);
    if (prism) return [`${where}: Prism answered instead of the API: ${prism}`];
    const violations = answer.headers.get('sl-violations');
    if (violations) problems.push(`${where}: Prism reports contract violations: ${violations}`);

    const response = this.response(op, answer.status);
    if (!response) return [...problems, `${where}, which the contract does not document (documented: ${op.statuses.join(', ')})`];

    for (const [name, raw] of Object.entries(response.headers ?? {})) {
      const value = answer.headers.get(name);
      if (value === null) continue;
      const header = this.deref(raw);
      const fn = this.validator(`header:${op.id}:${answer.status}:${name}`, header.schema ?? {});
      if (!fn(value)) problems.push(`${where}: header ${name}: '${value}' ${fn.errors?.[0]?.message ?? 'is invalid'}`);
    }

    if (!response.content) {
      if (answer.body.byteLength > 0) problems.push(`${where}: the contract documents no body but one came: ${text.slice(0, 200)}`);
      return problems;
    }
    const content = response.content[media];
    if (!content) {
      return [...problems, `${where}: media type '${media}' is not one of ${Object.keys(response.content).join(', ')}`];
    }
    if (isJson(media)) {
      const fn = this.validator(`body:${op.id}:${answer.status}:${media}`, content.schema ?? {});
      if (!fn(parsed)) {
        const details = (fn.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`).join('; ');
        problems.push(`${where}: the body breaks the schema: ${details}\n  body: ${text.slice(0, 300)}`);
      }
    } else if (answer.body.byteLength === 0) {
      problems.push(`${where}: an empty ${media} body`);
    }
    return problems;
  }
}

/** The Prism problem in a parsed body, as one line, or null when the body is not Prism's. */
export function prismProblem(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const p = body as { type?: unknown; title?: unknown; detail?: unknown; validation?: unknown };
  if (typeof p.type !== 'string' || !p.type.startsWith(PRISM_ERROR_TYPE)) return null;
  return `${p.type.slice(PRISM_ERROR_TYPE.length)} ${String(p.title)}: ${String(p.detail)} ${JSON.stringify(p.validation ?? [])}`;
}

/** Schemas inside paths may $ref component schemas: point those refs at the registered document. */
function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema ?? {}), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `openapi${value}` : value,
  );
}

/** Answers seen by a client: which operations were exercised, and every contract problem found. */
export class Recorder {
  readonly seen = new Set<string>();
  /** Every answer recorded, oldest first. */
  readonly answers: Array<{ op: string; status: number; headers: Headers }> = [];
  private problems: string[] = [];

  constructor(private readonly contract: Contract) {}

  record(op: Operation, answer: Answer): void {
    this.seen.add(op.id);
    this.answers.push({ op: op.id, status: answer.status, headers: answer.headers });
    this.problems.push(...this.contract.checkAnswer(op, answer));
  }

  /** The statuses `op` answered with since answer number `from`. */
  statusesSince(from: number, op: string): number[] {
    return this.answers
      .slice(from)
      .filter((a) => a.op === op)
      .map((a) => a.status);
  }

  /** The most recent answer `op` gave. */
  last(op: string): { status: number; headers: Headers } {
    const found = this.answers.findLast((a) => a.op === op);
    if (!found) throw new Error(`No answer recorded for ${op}`);
    return found;
  }

  /** The problems found since the last call. */
  take(): string[] {
    const out = this.problems;
    this.problems = [];
    return out;
  }

  /**
   * Checks an answer to a request made without the typed client (e.g. following a URL the API
   * returned). `basePath` is the part of the URL before the contract's paths.
   */
  async recordRaw(method: string, url: string, response: Response, basePath = ''): Promise<void> {
    const pathname = new URL(url).pathname;
    const op = this.contract.match(method, basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname);
    if (!op) {
      this.problems.push(`${method} ${url} reaches no operation of the contract`);
      return;
    }
    this.record(op, { status: response.status, headers: response.headers, body: new Uint8Array(await response.clone().arrayBuffer()) });
  }

  /** openapi-fetch middleware that records every answer the client gets. */
  middleware(): Middleware {
    return {
      onResponse: async ({ request, response, schemaPath }) => {
        const op = this.contract.find(request.method, schemaPath);
        if (!op) {
          this.problems.push(`${request.method} ${schemaPath} is not an operation of the contract`);
          return;
        }
        const body = new Uint8Array(await response.clone().arrayBuffer());
        this.record(op, { status: response.status, headers: response.headers, body });
      },
    };
  }
}
