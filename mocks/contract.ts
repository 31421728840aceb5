import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** The parts of an OpenAPI document the mock reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> };
}

interface ParameterObject {
  name: string;
  in: string;
  schema?: unknown;
  $ref?: string;
}

/** A Standard Schema (https://standardschema.dev) backed by one of the contract's schemas. */
export interface ContractSchema<T> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'openapi';
    readonly validate: (
      value: unknown,
    ) => { value: T; issues?: undefined } | { issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey> }> };
    readonly types?: { readonly input: T; readonly output: T };
  };
}

export interface Contract {
  /** A Standard Schema for `components.schemas[name]`. */
  schema<T>(name: string): ContractSchema<T>;
  /** Checks a value against `components.schemas[name]`: a readable message, or null when valid. */
  check(name: string, value: unknown): string | null;
  /** Checks query parameters against those documented for `GET path`: a message, or null. */
  checkQuery(path: string, query: URLSearchParams): string | null;
}

function describeErrors(errors: ErrorObject[] | null | undefined, label: string): string {
  const first = errors?.[0];
  if (!first) return `${label} is invalid`;
  const where = first.instancePath ? `${label}${first.instancePath.replaceAll('/', '.')}` : label;
  if (first.keyword === 'additionalProperties' || first.keyword === 'unevaluatedProperties') {
    const extra = first.params as { additionalProperty?: string; unevaluatedProperty?: string };
    return `${where} has an unknown field '${extra.additionalProperty ?? extra.unevaluatedProperty ?? '?'}'`;
  }
  return `${where} ${first.message ?? 'is invalid'}`;
}

/** Builds validators from the contract itself, so the mock holds no second model of the data. */
export function createContract(doc: OpenApiDocument): Contract {
  const ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: doc.components });
  const cache = new Map<string, ValidateFunction>();

  const compiled = (ref: string): ValidateFunction => {
    let fn = cache.get(ref);
    if (!fn) {
      fn = ajv.compile({ $ref: `openapi${ref}` });
      cache.set(ref, fn);
    }
    return fn;
  };

  const check = (name: string, value: unknown): string | null => {
    const fn = compiled(`#/components/schemas/${name}`);
    return fn(value) ? null : describeErrors(fn.errors, 'body');
  };

  const resolveParameter = (p: ParameterObject): ParameterObject => {
    if (!p.$ref) return p;
    const key = p.$ref.replace('#/components/parameters/', '');
    const params = (doc.components as { parameters?: Record<string, ParameterObject> }).parameters ?? {};
    const found = params[key];
    if (!found) throw new Error(`openapi.yaml: unresolved parameter ${p.$ref}`);
    return found;
  };

  return {
    schema<T>(name: string): ContractSchema<T> {
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
    checkQuery(path, query) {
      const get = doc.paths[path]?.get as { parameters?: ParameterObject[] } | undefined;
      for (const raw of get?.parameters ?? []) {
        const p = resolveParameter(raw);
        if (p.in !== 'query') continue;
        const values = query.getAll(p.name);
        if (values.length === 0) continue;
        if (values.length > 1) return `query parameter '${p.name}' must be given at most once`;
        const value = values[0]!;
        const key = `query:${path}:${p.name}`;
        let fn = cache.get(key);
        if (!fn) {
          fn = ajv.compile(rebase(p.schema) as object);
          cache.set(key, fn);
        }
        if (!fn(value)) return describeErrors(fn.errors, `query parameter '${p.name}'`);
      }
      return null;
    },
  };
}

/** Parameter schemas may $ref component schemas: point those refs at the registered document. */
function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema ?? {}), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `openapi${value}` : value,
  );
}
