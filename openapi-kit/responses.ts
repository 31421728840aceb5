import { follow, isJsonMedia, isRecord, mediaTypeOf, type OpenApiDocument } from './document.ts';
import { responseFor, type OperationSpec } from './operations.ts';
import type { SchemaValidator } from './validator.ts';

/** An answer as received: the whole body. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

export type ViolationKind = 'status' | 'content-type' | 'header' | 'body' | 'error-body';

/** One way an answer breaks the contract. */
export interface Violation {
  kind: ViolationKind;
  message: string;
  /** For a schema problem: where in the value (JSON pointer) and where in the document. */
  instancePath?: string;
  schemaPath?: string;
}

/** `image/*` and `*\/*` in a documented media type match any subtype. */
export function mediaMatches(documented: string, actual: string): boolean {
  if (documented === actual) return true;
  const [type, subtype] = documented.split('/');
  if (subtype === '*') return type === '*' || actual.startsWith(`${type}/`);
  return false;
}

const excerpt = (text: string, n = 200) => (text.length > n ? `${text.slice(0, n)}…` : text);

/**
 * What the document says about its Error body: the pointer of `components.schemas.Error`, and for
 * each status the `error` reason phrase its examples give (e.g. 413 → Payload Too Large).
 */
export interface ErrorConvention {
  pointer: string;
  phrases: Map<number, Set<string>>;
}

export function errorConvention(doc: OpenApiDocument, ops: readonly OperationSpec[]): ErrorConvention | null {
  if (!isRecord(doc.components.schemas.Error)) return null;
  const pointer = '/components/schemas/Error';
  const phrases = new Map<number, Set<string>>();
  for (const op of ops) {
    for (const response of Object.values(op.responses)) {
      // Stryker disable next-line ArrayDeclaration: a stray string in the fallback has no pointer, so it is skipped like no content at all
      for (const content of response.content ?? []) {
        if (!content.pointer || follow(doc, content.schema, content.pointer).pointer !== pointer) continue;
        for (const example of content.examples) {
          if (!isRecord(example) || typeof example.status !== 'number' || typeof example.error !== 'string') continue;
          const set = phrases.get(example.status) ?? new Set<string>();
          set.add(example.error);
          phrases.set(example.status, set);
        }
      }
    }
  }
  return { pointer, phrases };
}

/**
 * Checks one answer against what the document says of the operation: the status is documented
 * (or `default`), the Content-Type is one documented for that status, every header the response
 * marks `required` is there and every documented header present matches its schema, a body is
 * there exactly when one is documented, and a JSON body validates against its schema
 * (`unevaluatedProperties` and formats included). An Error body also carries the answer's status
 * and the reason phrase the document's examples give for it.
 */
export function checkAnswer(
  doc: OpenApiDocument,
  validator: SchemaValidator,
  convention: ErrorConvention | null,
  op: OperationSpec,
  answer: Answer,
): Violation[] {
  const out: Violation[] = [];
  const response = responseFor(op, answer.status);
  if (!response) {
    return [
      {
        kind: 'status',
        message: `status ${answer.status} is not documented for ${op.id} (documented: ${op.statuses.join(', ')})`,
      },
    ];
  }
  const documented = `${op.id} ${response.status}`;

  for (const header of response.headers) {
    const value = answer.headers.get(header.name);
    if (value === null) {
      if (header.required) out.push({ kind: 'header', message: `the required header ${header.name} is missing (${documented})` });
      continue;
    }
    const type = header.schema.type;
    const typed = type === 'integer' || type === 'number' ? Number(value) : value;
    for (const p of validator.atPointer(header.pointer, typed)) {
      out.push({
        kind: 'header',
        message: `header ${header.name}: '${excerpt(value, 100)}' ${p.message}`,
        instancePath: p.instancePath,
        schemaPath: p.schemaPath,
      });
    }
  }

  const text = new TextDecoder().decode(answer.body);
  const contentType = answer.headers.get('content-type');
  const media = mediaTypeOf(contentType);
  if (response.content === null || response.content.length === 0) {
    if (answer.body.byteLength > 0) out.push({ kind: 'body', message: `a body came where ${documented} documents none: ${excerpt(text)}` });
    return out;
  }
  const content = response.content.find((c) => mediaMatches(c.media, media));
  if (!content) {
    out.push({
      kind: 'content-type',
      message: `Content-Type '${contentType ?? '(none)'}' is not documented for ${documented} (documented: ${response.content.map((c) => c.media).join(', ')})`,
    });
    return out;
  }
  if (!isJsonMedia(media)) {
    if (answer.body.byteLength === 0) out.push({ kind: 'body', message: `an empty ${media} body (${documented})` });
    return out;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    out.push({ kind: 'body', message: `the body is not JSON although the Content-Type is ${media}: ${excerpt(text)}` });
    return out;
  }
  if (!content.pointer) return out;
  const problems = validator.atPointer(content.pointer, parsed);
  for (const p of problems) {
    const extra = p.params.unevaluatedProperty ?? p.params.additionalProperty;
    out.push({
      kind: 'body',
      message: `body${p.instancePath ? ` at ${p.instancePath}` : ''} ${p.message}${extra !== undefined ? ` ('${String(extra)}')` : ''}`,
      instancePath: p.instancePath,
      schemaPath: p.schemaPath,
    });
  }
  if (
    problems.length === 0 &&
    convention &&
    isRecord(parsed) &&
    follow(doc, content.schema, content.pointer).pointer === convention.pointer
  ) {
    out.push(...errorBodyViolations(convention, answer.status, parsed));
  }
  return out;
}

/** Error.status is "the HTTP status code", Error.error its reason phrase (as the examples give it), Error.message says what went wrong. */
function errorBodyViolations(convention: ErrorConvention, status: number, body: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  if ('status' in body && body.status !== status)
    out.push({ kind: 'error-body', message: `the Error body says status ${JSON.stringify(body.status)} in a ${status} answer` });
  const phrases = convention.phrases.get(status);
  if (phrases && typeof body.error === 'string' && !phrases.has(body.error))
    out.push({
      kind: 'error-body',
      message: `the Error body's error is ${JSON.stringify(body.error)}; the document's examples give ${[...phrases].map((p) => `'${p}'`).join(' or ')} for ${status}`,
    });
  if (typeof body.message === 'string' && body.message.trim() === '')
    out.push({ kind: 'error-body', message: 'the Error body has an empty message' });
  return out;
}
