/**
 * An OpenAPI 3 document as read here: the check that a parse result is one (an OpenAPI 3.0
 * document's schemas read as JSON Schema 2020-12), and the JSON pointers and local references every
 * other reader follows: its operations (./operations.ts), its REST collections (./collections.ts).
 * A parse result goes in; nothing here does I/O, so the same code runs in the browser (the dev
 * mock) and in Node.
 *
 * What the standard keywords cannot state is read from vendor extensions, described in
 * openapi.yaml's info.description: `x-max-body-bytes` on a request body's media type (read with
 * the operations), `x-max-records` and `x-sequential-ids` on a collection's path, `x-sort` on a
 * collection's list and `x-body-id-matches-path` on a collection's replace (read with the
 * collections).
 */

export type JsonSchema = { readonly [keyword: string]: unknown };

/** The parts of an OpenAPI document read here. */
export interface OpenApiDocument {
  openapi?: string;
  info?: Record<string, unknown>;
  servers?: Array<{ url: string }>;
  security?: unknown;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; [section: string]: unknown };
}

/** A document that cannot be read as an OpenAPI description of operations. */
export class SpecError extends Error {}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON pointer token: `/` and `~` escaped. */
export const pointerToken = (s: string): string => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** The node at a local reference (`#/components/schemas/Id`), or undefined. */
export function atPointer(doc: unknown, ref: string): unknown {
  let node: unknown = doc;
  for (const part of ref.replace(/^#\/?/, '').split('/')) {
    if (part === '') continue;
    node =
      isRecord(node) || Array.isArray(node)
        ? (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')]
        : undefined;
  }
  return node;
}

export function resolveRef(doc: unknown, ref: string): Record<string, unknown> {
  const node = atPointer(doc, ref);
  if (!isRecord(node)) throw new SpecError(`unresolved reference ${ref}`);
  return node;
}

/** Follows `$ref`s from a node: the object it stands for, and that object's pointer in the document. */
export function follow(doc: unknown, value: unknown, pointer: string): { node: Record<string, unknown>; pointer: string } {
  let node = isRecord(value) ? value : {};
  let at = pointer;
  for (let guard = 0; typeof node.$ref === 'string'; guard++) {
    if (guard > 20) throw new SpecError(`$ref loop at ${at}`);
    if (!node.$ref.startsWith('#')) throw new SpecError(`only local references are supported: ${node.$ref}`);
    at = node.$ref.slice(1);
    node = resolveRef(doc, node.$ref);
  }
  return { node, pointer: at };
}

export const mediaTypeOf = (contentType: string | null | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();
export const isJsonMedia = (media: string): boolean => media === 'application/json' || media.endsWith('+json');
/** Checks the shape this module needs of a parse result: a SpecError with a one-line reason otherwise. */
export function asOpenApiDocument(parsed: unknown, name = 'the document'): OpenApiDocument {
  if (!isRecord(parsed)) throw new SpecError(`${name} is not an OpenAPI document (no mapping at the top)`);
  if (typeof parsed.openapi !== 'string' || !parsed.openapi.startsWith('3.')) throw new SpecError(`${name} is not an OpenAPI 3 document`);
  if (!isRecord(parsed.paths)) throw new SpecError(`${name} has no paths`);
  if (parsed.components !== undefined && !isRecord(parsed.components)) throw new SpecError(`${name} has components that are no mapping`);
  const components = isRecord(parsed.components) ? parsed.components : {};
  if (components.schemas !== undefined && !isRecord(components.schemas))
    throw new SpecError(`${name} has component schemas that are no mapping`);
  const doc = { ...parsed, components: { ...components, schemas: isRecord(components.schemas) ? components.schemas : {} } };
  return (parsed.openapi.startsWith('3.0') ? asJsonSchema2020(doc) : doc) as unknown as OpenApiDocument;
}

/**
 * An OpenAPI 3.0 document's schemas in the JSON Schema 2020-12 the validator speaks: `nullable: true`
 * adds `null` to the type (and to an `enum`), and a boolean `exclusiveMinimum`/`exclusiveMaximum`
 * becomes the number it qualifies. Everything else of 3.0's schema dialect reads the same.
 */
function asJsonSchema2020(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asJsonSchema2020);
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'example' || key === 'examples' ? value : asJsonSchema2020(value);
  if (out.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  if (typeof out.nullable === 'boolean') delete out.nullable;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  return out;
}
