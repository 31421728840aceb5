/**
 * Parameters as they travel: a path, query or header parameter is text on the wire, and its schema
 * describes the value that text stands for. `encodeParam` writes a value the way OpenAPI's default
 * styles do (path and header `simple`, query `form` with `explode: true`, or `explode: false`), and
 * `decodeParam` reads the text back into the schema's type, so that `5` is an integer where the
 * schema says `integer` and `a,b` an array where it says `array`. Text that does not read as the
 * type stays text, and then fails the schema as it should.
 */
import { follow, isRecord, type JsonSchema } from './document.ts';
import type { ParamSpec } from './operations.ts';

type Scalar = 'string' | 'integer' | 'number' | 'boolean' | 'null';
export type ParamShape = Scalar | 'array' | 'object' | 'any';

/** The type a parameter's schema gives its value, `$ref`s and a single-type `allOf` followed. */
export function shapeOf(doc: unknown, schema: JsonSchema, pointer = ''): ParamShape {
  const { node } = follow(doc, schema, pointer);
  const t = node.type;
  const types = (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string' && x !== 'null');
  if (types.length === 1) return types[0] as ParamShape;
  if (types.length > 1) return 'any';
  if (node.items !== undefined) return 'array';
  if (node.properties !== undefined) return 'object';
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const parts = node[key];
    if (!Array.isArray(parts) || parts.length === 0) continue;
    const shapes = new Set(parts.map((p, i) => shapeOf(doc, p as JsonSchema, `${pointer}/${key}/${i}`)));
    shapes.delete('any');
    if (shapes.size === 1) return [...shapes][0]!;
  }
  if (node.enum !== undefined && Array.isArray(node.enum) && node.enum.every((v) => typeof v === 'string')) return 'string';
  return 'any';
}

/** The item schema of an array parameter. */
function itemsOf(doc: unknown, schema: JsonSchema, pointer: string): { schema: JsonSchema; pointer: string } {
  const { node, pointer: at } = follow(doc, schema, pointer);
  return { schema: isRecord(node.items) ? (node.items as JsonSchema) : {}, pointer: `${at}/items` };
}

/** Whether a parameter may be given several times: an array in a query that explodes. */
export const repeats = (doc: unknown, p: Pick<ParamSpec, 'in' | 'style' | 'explode' | 'schema' | 'pointer'>): boolean =>
  p.in === 'query' && explodes(p) && shapeOf(doc, p.schema, p.pointer) === 'array';

/** A query parameter repeats its name once per item (`form` with `explode`, OpenAPI's default). */
const explodes = (p: Pick<ParamSpec, 'in' | 'style' | 'explode'>): boolean =>
  p.explode ?? (p.style ?? (p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple')) === 'form';

const scalarText = (value: unknown): string =>
  typeof value === 'string' ? value : value === null ? 'null' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/**
 * The texts a value is sent as: one text for a path or header parameter and for a query parameter
 * that does not explode, one text per item for an exploded array. An object goes as `k,v,k,v`
 * (`simple` and unexploded `form`) or, exploded in a query, as JSON text: the document's other
 * styles are not written.
 */
export function encodeParam(p: Pick<ParamSpec, 'in' | 'style' | 'explode'>, value: unknown): string[] {
  if (Array.isArray(value)) {
    const items = value.map(scalarText);
    return p.in === 'query' && explodes(p) ? items : [items.join(',')];
  }
  if (isRecord(value) && !(p.in === 'query' && explodes(p)))
    return [
      Object.entries(value)
        .flatMap(([k, v]) => [k, scalarText(v)])
        .join(','),
    ];
  return [scalarText(value)];
}

/** A text as a scalar of the given type, or the text itself when it does not read as one. */
function readScalar(text: string, shape: ParamShape): unknown {
  if (shape === 'integer' || shape === 'number') {
    if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
    return text;
  }
  if (shape === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (shape === 'null') return text === 'null' ? null : text;
  return text;
}

/**
 * The value a parameter's texts stand for, read by its schema; `undefined` when none was given.
 * Several texts for a parameter that is no exploded array stay a list of texts: the schema then
 * says it is wrong.
 */
export function decodeParam(
  doc: unknown,
  p: Pick<ParamSpec, 'in' | 'style' | 'explode' | 'schema' | 'pointer'>,
  texts: readonly string[],
): unknown {
  if (texts.length === 0) return undefined;
  const shape = shapeOf(doc, p.schema, p.pointer);
  if (shape === 'array') {
    const items = itemsOf(doc, p.schema, p.pointer);
    const itemShape = shapeOf(doc, items.schema, items.pointer);
    const parts = p.in === 'query' && explodes(p) ? texts : texts.length === 1 ? (texts[0] === '' ? [] : texts[0]!.split(',')) : texts;
    return parts.map((t) => readScalar(t, itemShape));
  }
  if (texts.length > 1) return [...texts];
  const text = texts[0]!;
  if (shape === 'object' && !(p.in === 'query' && explodes(p))) {
    const parts = text.split(',');
    if (parts.length % 2 !== 0) return text;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < parts.length; i += 2)
      Object.defineProperty(out, parts[i]!, { value: parts[i + 1], enumerable: true, writable: true, configurable: true });
    return out;
  }
  if (shape === 'object') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return readScalar(text, shape);
}
