import { describeProblem, OpenApiSpec, type OpenApiDocument } from '../openapi-kit/index.ts';

export type { OpenApiDocument } from '../openapi-kit/index.ts';

/** A Standard Schema (https://standardschema.dev), what an @msw/data collection validates its records with. */
export interface StandardSchema<T> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { value: T; issues?: undefined } | { issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey> }> };
    readonly types?: { readonly input: T; readonly output: T };
  };
}

export interface Contract {
  /** The document read once: operations, collections, limits and validators. */
  readonly spec: OpenApiSpec;
  /** A Standard Schema for `components.schemas[name]`. */
  schema<T>(name: string): StandardSchema<T>;
  /** Checks a value against `components.schemas[name]`: a readable message, or null when valid. */
  check(name: string, value: unknown): string | null;
  /** Checks a value against the schema at a pointer of the document (a request body's): a message naming `label`, or null. */
  checkAt(pointer: string, value: unknown, label: string): string | null;
  /** Checks query parameters against those documented for `GET path`: a message, or null. */
  checkQuery(path: string, query: URLSearchParams): string | null;
}

/** Builds validators from the contract itself, so the mock holds no second model of the data. */
export function createContract(doc: OpenApiDocument): Contract {
  const spec = new OpenApiSpec(doc);

  const checkAt = (pointer: string, value: unknown, label: string): string | null => {
    const problems = spec.validator.atPointer(pointer, value);
    return problems.length === 0 ? null : describeProblem(problems[0], label);
  };
  const check = (name: string, value: unknown) => checkAt(`/components/schemas/${name}`, value, 'body');

  return {
    spec,
    schema<T>(name: string): StandardSchema<T> {
      return {
        '~standard': {
          version: 1,
          vendor: 'openapi',
          validate(value) {
            const message = check(name, value);
            return message === null ? { value: value as T } : { issues: [{ message }] };
          },
        },
      };
    },
    check,
    checkAt,
    checkQuery(path, query) {
      // Stryker disable next-line ArrayDeclaration: a stray string in the fallback has no `in`, so it is skipped like no parameter at all
      for (const p of spec.find('GET', path)?.params ?? []) {
        if (p.in !== 'query') continue;
        const values = query.getAll(p.name);
        if (values.length === 0) continue;
        if (values.length > 1) return `query parameter '${p.name}' must be given at most once`;
        const problem = checkAt(p.pointer, values[0], `query parameter '${p.name}'`);
        if (problem) return problem;
      }
      return null;
    },
  };
}
