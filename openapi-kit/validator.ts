import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { atPointer as nodeAt, isRecord, pointerToken, type OpenApiDocument } from './document.ts';

/** One way a value breaks a schema. */
export interface SchemaProblem {
  /** Where in the value (a JSON pointer, '' for the whole value). */
  instancePath: string;
  /** Where in the document, as a URI fragment (`#/components/schemas/Symbol/properties/code/pattern`) when known. */
  schemaPath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

export interface ValidatorOptions {
  /**
   * Every problem, each with its place in the document (slower): for reports. Without it, the
   * first problem only, as a server answering 400 needs.
   */
  detailed?: boolean;
}

const DOC_ID = 'openapi';

const newAjv = (options: { allErrors?: boolean; verbose?: boolean; validateSchema?: boolean } = {}): Ajv2020 => {
  const ajv = new Ajv2020({ ...options, strict: false, validateFormats: true });
  addFormats(ajv);
  return ajv;
};

/**
 * The check of a document against JSON Schema's meta-schema, made once: compiling the meta-schema
 * costs more than most of the document's own schemas, and a process (verify beside the mock it
 * started) holds several validators of the same document.
 */
let metaSchema: Ajv2020 | undefined;
const metaSchemaCheck = (): Ajv2020 => {
  metaSchema ??= newAjv();
  return metaSchema;
};

/**
 * JSON Schema 2020-12 validation (ajv, with formats) against the schemas of one OpenAPI document:
 * a schema by its pointer in the document, or any schema object whose `$ref`s point into it.
 */
export class SchemaValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly places = new WeakMap<object, string>();
  private readonly detailed: boolean;
  private readonly doc: OpenApiDocument;

  constructor(doc: OpenApiDocument, { detailed = false }: ValidatorOptions = {}) {
    this.detailed = detailed;
    this.doc = doc;
    this.ajv = newAjv({ allErrors: detailed, verbose: detailed, validateSchema: false });
    // The whole document, so that a schema is compiled where it stands and its `#/…` refs resolve.
    const root = { ...doc, $id: DOC_ID };
    metaSchemaCheck().validateSchema(root, true);
    this.ajv.addSchema(root);
    if (detailed) this.index(doc, '');
  }

  /** Remembers each object's pointer, to turn ajv's schemaPath (relative to a $ref's target) into one in the document. */
  private index(node: unknown, pointer: string): void {
    if (typeof node !== 'object' || node === null || this.places.has(node)) return;
    this.places.set(node, pointer);
    const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
    for (const [key, value] of entries) this.index(value, `${pointer}/${pointerToken(key)}`);
  }

  private compiled(key: string, make: () => object): ValidateFunction {
    let fn = this.cache.get(key);
    if (!fn) {
      fn = this.ajv.compile(make());
      this.cache.set(key, fn);
    }
    return fn;
  }

  private problems(fn: ValidateFunction, value: unknown): SchemaProblem[] {
    if (fn(value)) return [];
    // Stryker disable next-line ArrayDeclaration: ajv always sets `errors` when a validation fails, so the fallback is never used
    return (fn.errors ?? []).map((e) => this.problem(e));
  }

  private problem(e: ErrorObject): SchemaProblem {
    const parent = isRecord(e.parentSchema) ? this.places.get(e.parentSchema) : undefined;
    return {
      instancePath: e.instancePath,
      schemaPath: parent !== undefined ? `#${parent}/${e.keyword}` : e.schemaPath,
      keyword: e.keyword,
      // Stryker disable next-line StringLiteral: ajv gives every error a message unless built with `messages: false`, which is never done here
      message: e.message ?? 'is invalid',
      params: e.params as Record<string, unknown>,
    };
  }

  /** Validates against the schema at a pointer of the document (`/components/schemas/Symbol`). */
  atPointer(pointer: string, value: unknown): SchemaProblem[] {
    let fn = this.cache.get(`ptr:${pointer}`);
    if (!fn) {
      // A schema that is only a reference is its target's: every answer whose schema is
      // `$ref: '#/components/schemas/Error'` shares one compiled function.
      const target = referenced(this.doc, pointer);
      fn = this.compiled(`ptr:${target}`, () => ({ $ref: `${DOC_ID}#${target}` }));
      this.cache.set(`ptr:${pointer}`, fn);
    }
    return this.problems(fn, value);
  }

  /** Validates against `components.schemas[name]`. */
  schema(name: string, value: unknown): SchemaProblem[] {
    return this.atPointer(`/components/schemas/${pointerToken(name)}`, value);
  }

  /**
   * Validates against a schema object that is not in the document (its `#/…` refs point into it),
   * cached by `key`; schemas of the same text under other keys (every operation's id parameter,
   * say) share one compiled function.
   */
  against(key: string, schema: unknown, value: unknown): SchemaProblem[] {
    let fn = this.cache.get(`obj:${key}`);
    if (!fn) {
      const rebased = rebase(schema);
      const text = JSON.stringify(rebased);
      fn = this.compiled(`text:${text}`, () => rebased as object);
      this.cache.set(`obj:${key}`, fn);
    }
    return this.problems(fn, value);
  }

  get reportsEveryProblem(): boolean {
    return this.detailed;
  }
}

/** Where a chain of schemas that are each only a local `$ref` ends (the pointer itself when it is no such schema). */
function referenced(doc: OpenApiDocument, pointer: string): string {
  let at = pointer;
  for (let seen = 0; seen < 20; seen++) {
    const node = nodeAt(doc, `#${at}`);
    if (!isRecord(node) || Object.keys(node).length !== 1 || typeof node.$ref !== 'string' || !node.$ref.startsWith('#')) break;
    at = node.$ref.slice(1);
  }
  return at;
}

/** Refs of a schema outside the document point at the registered document. */
function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema ?? {}), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOC_ID}${value}` : value,
  );
}

/** A problem in words: `body.code must match pattern "^[A-Z]{1,5}$"`, `body has an unknown field 'x'`. */
export function describeProblem(p: SchemaProblem | undefined, label: string): string {
  if (!p) return `${label} is invalid`;
  const where = p.instancePath ? `${label}${p.instancePath.replaceAll('/', '.')}` : label;
  if (p.keyword === 'additionalProperties' || p.keyword === 'unevaluatedProperties') {
    const extra = p.params.additionalProperty ?? p.params.unevaluatedProperty ?? '?';
    return `${where} has an unknown field '${String(extra)}'`;
  }
  return `${where} ${p.message}`;
}
