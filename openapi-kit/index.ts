/**
 * openapi-kit: the one reader, validator and value generator of openapi.yaml, shared by the mock
 * (in the browser and in Node), verify, the tests and bench: a parse result in; operations,
 * collections, limits, validators and generated values out. ./node.ts adds what needs Node.
 *
 * May import: its own files and libraries (ajv, fast-check); nothing else of the repository.
 */
import { collectionSpecs, type CollectionSpec } from './collections.ts';
import { asOpenApiDocument, SpecError, type OpenApiDocument } from './document.ts';
import { operationSpecs as operationSpecsOf, type OperationSpec } from './operations.ts';
import { matchOperation } from './path-match.ts';
import { linkSpecs, type LinkSpec } from './links.ts';
import { languageNegotiations, type LanguageNegotiation } from './languages.ts';
import { countSpecs, type CountSpec } from './counts.ts';
import { RequestChecker, type RequestIn } from './requests.ts';
import { checkAnswer, errorConvention, type Answer, type ErrorConvention, type Violation } from './responses.ts';
import { SchemaValidator, type ValidatorOptions } from './validator.ts';

export * from './document.ts';
export * from './operations.ts';
export * from './collections.ts';
export * from './path-match.ts';
export * from './requests.ts';
export * from './responses.ts';
export * from './validator.ts';
export * from './arbitraries.ts';
export { anyCodePoint, codePoints, NASTY_FRAGMENTS, Repeated, textOf, webUrl, type Text } from './string-pieces.ts';
export { GeneratorGaveUp, MAX_MISSES, satisfying } from './satisfying.ts';
export type { SchemaArbitraryOptions } from './valid-values.ts';
export * from './parameters.ts';
export * from './links.ts';
export * from './languages.ts';
export * from './counts.ts';

export class OpenApiSpec {
  readonly doc: OpenApiDocument;
  readonly operations: readonly OperationSpec[];
  readonly collections: readonly CollectionSpec[];
  /** The responses' `links`: which answer feeds which request. */
  readonly links: readonly LinkSpec[];
  /** The collections whose reads negotiate by language (./languages.ts). */
  readonly languages: readonly LanguageNegotiation[];
  /** The answers that count a list's items (`x-count-of`, ./counts.ts). */
  readonly counts: readonly CountSpec[];
  readonly validator: SchemaValidator;
  readonly errors: ErrorConvention | null;
  private readonly requests: RequestChecker;

  /** Throws a SpecError (one line) when the document cannot be read. */
  constructor(parsed: unknown, options: ValidatorOptions & { name?: string } = {}) {
    this.doc = asOpenApiDocument(parsed, options.name);
    this.operations = operationSpecsOf(this.doc);
    this.collections = collectionSpecs(this.doc, this.operations);
    this.links = linkSpecs(this.doc, this.operations);
    this.languages = languageNegotiations(this.doc, this.collections);
    this.counts = countSpecs(this.doc, this.operations);
    try {
      this.validator = new SchemaValidator(this.doc, options);
    } catch (error) {
      throw new SpecError(`the schemas cannot be compiled: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.errors = errorConvention(this.doc, this.operations);
    this.requests = new RequestChecker(this.validator, this.doc);
  }

  byId(id: string): OperationSpec {
    const op = this.operations.find((o) => o.id === id);
    if (!op) throw new Error(`openapi.yaml has no operation '${id}'`);
    return op;
  }

  /** The operation for a method and a path template. */
  find(method: string, template: string): OperationSpec | undefined {
    return this.operations.find((o) => o.method === method.toUpperCase() && o.path === template);
  }

  /** The operation a concrete path (without the API base path) reaches; literal paths win over templates. */
  match(method: string, pathname: string): OperationSpec | undefined {
    return matchOperation(this.operations, method, pathname);
  }

  /** The ways an answer of `op` breaks the document; empty when it honours it. */
  check(op: OperationSpec, answer: Answer): Violation[] {
    return checkAnswer(this.doc, this.validator, this.errors, op, answer);
  }

  /** The ways a request to `op` breaks the document (parameters and body), in words; empty when it honours it. */
  checkRequest(op: OperationSpec, request: RequestIn): Promise<string[]> {
    return this.requests.check(op, request);
  }
}
