/**
 * The REST collections an OpenAPI document describes, read from its paths and operations, with
 * what the vendor extensions of their paths and operations say of them (`x-max-records`,
 * `x-sequential-ids`, `x-sort`, `x-body-id-matches-path`), and the order `x-sort` means.
 */
import { follow, isJsonMedia, isRecord, SpecError, type OpenApiDocument } from './document.ts';
import type { OperationSpec } from './operations.ts';
import { escapeRegExp } from './path-match.ts';

/**
 * A REST collection as the document describes it: a path whose GET lists the records and whose POST
 * creates one (201), and an item path below it (`/{collection}/{id}`) whose GET reads one.
 */
export interface CollectionSpec {
  name: string;
  path: string;
  itemPath: string;
  /** The item path's parameter that holds the record id. */
  idParam: string;
  /** The record's field that holds its id: the parameter's name where the record has that field, else `id`. */
  idField: string;
  /**
   * A create without an id gets the next integer above every numeric id present
   * (`x-sequential-ids: true` on the collection's path); otherwise the server's ids are only unique.
   */
  sequentialIds: boolean;
  list: OperationSpec;
  create: OperationSpec;
  read: OperationSpec;
  replace?: OperationSpec;
  remove?: OperationSpec;
  /** Every other operation of the two paths (e.g. a PATCH that is documented as 405 only). */
  others: OperationSpec[];
  /** Most records the collection holds (`x-max-records` on the path), when stated. */
  maxRecords?: number;
  /** The order of the list's answer (`x-sort` on the list: a field, `-` first for descending), when stated. */
  order?: ListOrder;
  /** The statuses the delete documents for a record it deleted (its 2xx): 204 for most, 200 for some. */
  removedStatuses: number[];
  /** The replace refuses with 400 a body whose id differs from the URL's (`x-body-id-matches-path: true`). */
  replaceChecksBodyId: boolean;
}

export interface ListOrder {
  field: string;
  descending: boolean;
}

/** `x-sort` of a list operation: `createdAt` ascending, `-createdAt` descending. */
function readOrder(raw: unknown, path: string): ListOrder | undefined {
  if (raw === undefined) return undefined;
  const match = typeof raw === 'string' ? /^(-?)([A-Za-z_$][\w$]*)$/.exec(raw) : null;
  if (!match) throw new SpecError(`x-sort of GET ${path} must be a field name, with a leading - for descending`);
  return { field: match[2]!, descending: match[1] === '-' };
}

/** The top-level collections: paths without parameters (`/things`) with their item path (`/things/{id}`). */
export function collectionSpecs(doc: OpenApiDocument, ops: readonly OperationSpec[]): CollectionSpec[] {
  return Object.keys(doc.paths)
    .filter((path) => !path.includes('{'))
    .flatMap((path) => collectionSpecAt(doc, ops, path) ?? []);
}

/**
 * The collection whose list and create are at `path`, when the document describes one there: a GET,
 * a POST of JSON answering 201, and an item path one parameter below it whose GET reads a record.
 * `path` may hold parameters of its own (a collection under a record, `/owners/{ownerId}/pets`).
 */
export function collectionSpecAt(doc: OpenApiDocument, ops: readonly OperationSpec[], path: string): CollectionSpec | null {
  const item = doc.paths[path];
  if (!isRecord(item)) return null;
  const create = ops.find((o) => o.path === path && o.method === 'POST' && o.body?.content['application/json'] && o.responses['201']);
  if (!create) return null;
  const itemPath = Object.keys(doc.paths).find((p) => new RegExp(`^${escapeRegExp(path)}/\\{[^}/]+\\}$`).test(p));
  if (!itemPath) return null;
  const idParam = /\{([^}]+)\}$/.exec(itemPath)![1]!;
  const on = (p: string, method: string) => ops.find((o) => o.path === p && o.method === method);
  // A collection lists its records and reads one by id; a create without those is something else (a singleton).
  if (!on(path, 'GET') || !on(itemPath, 'GET')) return null;
  const known = [on(path, 'GET'), create, on(itemPath, 'GET'), on(itemPath, 'PUT'), on(itemPath, 'DELETE')];
  const spec: CollectionSpec = {
    name: path.slice(1),
    path,
    itemPath,
    idParam,
    list: on(path, 'GET')!,
    create,
    read: on(itemPath, 'GET')!,
    others: ops.filter((o) => (o.path === path || o.path === itemPath) && !known.includes(o)),
    replaceChecksBodyId: false,
    idField: recordFields(doc, on(itemPath, 'GET')!).includes(idParam) ? idParam : 'id',
    removedStatuses: (on(itemPath, 'DELETE')?.statuses ?? []).filter((s) => /^2\d\d$/.test(s)).map(Number),
    sequentialIds: false,
  };
  const sequential = item['x-sequential-ids'];
  if (sequential !== undefined && typeof sequential !== 'boolean') throw new SpecError(`x-sequential-ids of ${path} must be true or false`);
  spec.sequentialIds = sequential === true;
  const order = readOrder(isRecord(item.get) ? item.get['x-sort'] : undefined, path);
  if (order) spec.order = order;
  const rawReplace = doc.paths[itemPath]?.put;
  const matches = isRecord(rawReplace) ? rawReplace['x-body-id-matches-path'] : undefined;
  if (matches !== undefined && typeof matches !== 'boolean')
    throw new SpecError(`x-body-id-matches-path of PUT ${itemPath} must be true or false`);
  spec.replaceChecksBodyId = matches === true;
  const replace = on(itemPath, 'PUT');
  const remove = on(itemPath, 'DELETE');
  if (replace) spec.replace = replace;
  if (remove) spec.remove = remove;
  const max = item['x-max-records'];
  if (max !== undefined) {
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0)
      throw new SpecError(`x-max-records of ${path} must be a non-negative integer`);
    spec.maxRecords = max;
  }
  return spec;
}

/** The top-level fields of a read's 200 JSON record (its own properties and those of an allOf). */
function recordFields(doc: unknown, read: OperationSpec): string[] {
  const content = read.responses['200']?.content?.find((c) => isJsonMedia(c.media));
  if (!content?.schema) return [];
  const fields: string[] = [];
  const visit = (schema: unknown, pointer: string, depth: number) => {
    if (depth > 10) return;
    const { node } = follow(doc, schema, pointer);
    if (isRecord(node.properties)) fields.push(...Object.keys(node.properties));
    if (!Array.isArray(node.allOf)) return;
    for (const [i, part] of node.allOf.entries()) visit(part, `${pointer}/allOf/${i}`, depth + 1);
  };
  visit(content.schema, content.pointer ?? '', 0);
  return fields;
}
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The order `x-sort` means between two field values: numbers by value, two RFC 3339 date-times by
 * the instant they name (so `…+01:00` and `…Z` compare as times, not as text), anything else by its
 * text, code unit by code unit. Negative when `a` comes first in ascending order; 0 for a tie, which
 * any order may list either way.
 */
export function compareSortValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  if (RFC3339.test(x) && RFC3339.test(y)) return Date.parse(x.toUpperCase()) - Date.parse(y.toUpperCase());
  return x < y ? -1 : x > y ? 1 : 0;
}
