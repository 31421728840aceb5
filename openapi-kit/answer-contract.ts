import type { Middleware } from 'openapi-fetch';
import { follow, OpenApiSpec, type OpenApiDocument, type OperationSpec } from './index.ts';
import { loadSpec } from './spec-file.ts';
import { SPEC_PATH } from './spec-file.ts';

/** The parts of openapi.yaml the contract tests read. */
interface MediaTypeObject {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, unknown>;
}
interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaTypeObject>;
}
type Document = OpenApiDocument;

/** An operation of openapi.yaml (see ./operations.ts): id, method, path template, documented statuses and more. */
export type Operation = OperationSpec;

export interface Answer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/** Prism marks its own answers (violations, unmatched routes, upstream failures) with this type. */
export const PRISM_ERROR_TYPE = 'https://stoplight.io/prism/errors';

export const mediaTypeOf = (headers: Headers) => (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
const isJson = (media: string) => media === 'application/json' || media.endsWith('+json');

/** openapi.yaml read through the shared reader (openapi-kit), with what the contract tests ask of it. */
export class AnswerContract {
  readonly doc: Document;
  readonly spec: OpenApiSpec;
  readonly operations: readonly Operation[];

  constructor(file = SPEC_PATH) {
    this.spec = new OpenApiSpec(loadSpec(file), { detailed: true });
    this.doc = this.spec.doc;
    this.operations = this.spec.operations;
  }

  get operationIds(): string[] {
    return this.operations.map((op) => op.id).sort();
  }

  byId(id: string): Operation {
    return this.spec.byId(id);
  }

  /** The operation for a method and a path template (openapi-fetch's `schemaPath`). */
  find(method: string, template: string): Operation | undefined {
    return this.spec.find(method, template);
  }

  /** The operation a concrete path (without the API base path) reaches; literal paths win over templates. */
  match(method: string, pathname: string): Operation | undefined {
    return this.spec.match(method, pathname);
  }

  /** The documented response object for a status (or `default`), references resolved. */
  response(op: Operation, status: number | string): ResponseObject | undefined {
    const documented = op.responses[String(status)] ?? op.responses.default;
    return documented === undefined
      ? undefined
      : (follow(this.doc, { $ref: `#${documented.pointer}` }, '').node as unknown as ResponseObject);
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
    const content = op.responses[String(status)]?.content?.find((c) => c.media === media);
    if (!content || content.examples.length === 0) return { found: false };
    return { found: true, value: content.examples[0] };
  }

  /** Validates a value against `components.schemas[name]`: the problems, empty when valid. */
  checkSchema(name: string, value: unknown): string[] {
    return this.spec.validator.schema(name, value).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
  }

  /**
   * Checks one answer against the contract (openapi-kit's judge: a documented status, media type,
   * required headers, headers and body against their schemas, the Error body's status and phrase).
   * Also flags any answer Prism made up itself (a violation, an unmatched route, an upstream
   * failure). Returns the problems, empty when the answer honours the contract.
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
        // The judge below reports a body that is not JSON.
      }
    }
    const prism = prismProblem(parsed);
    if (prism) return [`${where}: Prism answered instead of the API: ${prism}`];
    const violations = answer.headers.get('sl-violations');
    if (violations) problems.push(`${where}: Prism reports contract violations: ${violations}`);
    for (const v of this.spec.check(op, answer)) {
      const at = v.schemaPath ? ` [${v.schemaPath}]` : '';
      problems.push(`${where}: ${v.message}${at}${v.kind === 'body' ? `\n  body: ${text.slice(0, 300)}` : ''}`);
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

/** Answers seen by a client: which operations were exercised, and every contract problem found. */
export class Recorder {
  readonly seen = new Set<string>();
  /** Every answer recorded, oldest first. */
  readonly answers: Array<{ op: string; status: number; headers: Headers }> = [];
  private problems: string[] = [];

  private readonly contract: AnswerContract;

  constructor(contract: AnswerContract) {
    this.contract = contract;
  }

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
