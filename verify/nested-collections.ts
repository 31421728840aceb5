/**
 * Collections under a record, inferred from the path templates alone: a list and a create at
 * `/a/{aId}/b`, a read (and replace, delete) at `/a/{aId}/b/{bId}`, under a parent record read at
 * `/a/{aId}`, the longest path that ends in a parameter and of which the collection's path is an
 * extension. The parent parameter is that record path's last parameter. A parent is a collection
 * verify can make records of: a top-level one whose item path is the record path, or a collection
 * under a record itself (so `/a/{aId}/b/{bId}/c` works when `/a/{aId}/b` does).
 *
 * Links win: where a link to the collection's create gives it its parent parameter from another
 * operation than the inferred parent's create, the links say what the parent is, and the
 * collection is left to them (./links.ts follows them).
 */
import { collectionSpecAt, type CollectionSpec, type OpenApiSpec } from '../openapi-kit/index.ts';

export interface NestedCollection {
  collection: CollectionSpec;
  /** The parent record's path (`/a/{aId}`), the item path of `parent`. */
  parentPath: string;
  /** The path parameter that names the parent record (`aId`): the last of `parentPath`. */
  parentParam: string;
  /** The collection the parent records are made in: a top-level one, or one under a record. */
  parent: CollectionSpec;
}

/** The collections under a record the document describes, each after its parent's. */
export function nestedCollections(spec: Pick<OpenApiSpec, 'doc' | 'operations' | 'collections' | 'links'>): NestedCollection[] {
  const out: NestedCollection[] = [];
  const known = new Map<string, CollectionSpec>(spec.collections.map((c) => [c.itemPath, c]));
  const candidates = Object.keys(spec.doc.paths)
    .filter((path) => path.includes('{') && !path.endsWith('}'))
    // Shorter paths first: a parent's collection is found before its children's.
    .sort((a, b) => a.split('/').length - b.split('/').length);
  for (const path of candidates) {
    const collection = collectionSpecAt(spec.doc, spec.operations, path);
    if (!collection) continue;
    const parentPath = path.replace(/(\/[^/{}]+)+$/, '');
    const parentParam = /\{([^}]+)\}$/.exec(parentPath)?.[1];
    const parent = known.get(parentPath);
    if (!parentParam || !parent || !spec.operations.some((o) => o.path === parentPath && o.method === 'GET')) continue;
    if (linkedElsewhere(spec, collection, parentParam, parent)) continue;
    out.push({ collection, parentPath, parentParam, parent });
    known.set(collection.itemPath, collection);
  }
  return out;
}

/**
 * Whether the document's links say the collection's parent is another than the one inferred: a
 * link to its create names the parent parameter and leaves from an operation that is not the
 * inferred parent's create.
 */
function linkedElsewhere(spec: Pick<OpenApiSpec, 'links'>, c: CollectionSpec, parentParam: string, parent: CollectionSpec): boolean {
  return spec.links.some(
    (l) =>
      l.to === c.create.id &&
      (Object.hasOwn(l.parameters, parentParam) || Object.hasOwn(l.parameters, `path.${parentParam}`)) &&
      l.from !== parent.create.id,
  );
}
