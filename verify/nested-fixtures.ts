/**
 * The records of a collection under a record (./nested-collections.ts), made under a real parent:
 * the parent collection's own record of the run (made again if a request deleted it), else the
 * first record its list answers (a run that may not create, a parent collection that is full).
 * A request to the collection's operations then names that parent, so that its valid input reaches
 * a record rather than a parent no record has.
 */
import type { CollectionSpec, OperationSpec, SchemaArbitraries } from '../openapi-kit/index.ts';
import { CollectionFixtures } from './fixtures.ts';
import type { GeneratedRequest, PathValue } from './generated-request.ts';
import type { NestedCollection } from './nested-collections.ts';
import type { Session } from './session.ts';

export class NestedFixtures extends CollectionFixtures {
  readonly nested: NestedCollection;
  readonly parent: CollectionFixtures;

  constructor(session: Session, nested: NestedCollection, arbs: SchemaArbitraries, parent: CollectionFixtures) {
    super(session, nested.collection, arbs);
    this.nested = nested;
    this.parent = parent;
  }

  /** The parameters of the collection's path (`/a/{aId}/b`): the parent's, which the scope fills. */
  get parentParams(): string[] {
    return [...this.collection.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  }

  /** Whether `op` acts on this collection or below it (its path extends the collection's). */
  covers(op: OperationSpec): boolean {
    return op.path === this.collection.path || op.path.startsWith(`${this.collection.path}/`);
  }

  /** Puts the parent record in the scope: the parent's own record, else one it lists. Whether there is one. */
  async enter(): Promise<boolean> {
    let id = await this.parent.ensure();
    if (id === null) {
      if (this.parent instanceof NestedFixtures && !(await this.parent.enter())) return false;
      const rows = await this.parent.list();
      const raw = rows?.map((r) => r[this.parent.collection.idField]).find((v) => typeof v === 'string' || typeof v === 'number');
      id = raw === undefined ? null : String(raw);
    }
    if (id === null) return false;
    this.scope = { ...this.parent.scope, [this.nested.parentParam]: id };
    return true;
  }

  override async setup(): Promise<void> {
    if (await this.enter()) await super.setup();
  }

  override async ensure(): Promise<string | null> {
    return (await this.enter()) ? super.ensure() : null;
  }

  override async listing(): ReturnType<CollectionFixtures['listing']> {
    return (await this.enter()) ? super.listing() : null;
  }
}

/** The collection under a record that `op` is most closely under, among the run's fixtures. */
function nestedFor(all: Iterable<CollectionFixtures>, op: OperationSpec): NestedFixtures | undefined {
  let best: NestedFixtures | undefined;
  for (const f of all)
    if (f instanceof NestedFixtures && f.covers(op) && (!best || f.collection.path.length > best.collection.path.length)) best = f;
  return best;
}

/** Whether a path parameter of `op` names a parent record verify can fill in (a real one, not a random value). */
export function isParentParam(all: Iterable<CollectionFixtures>, op: OperationSpec, name: string): boolean {
  return nestedFor(all, op)?.parentParams.includes(name) ?? false;
}

/**
 * A generated request with its parent parameters that stand for an existing record set to the
 * run's parent record; the request as it was when `op` is under no record or there is no parent.
 */
export async function withParents(all: Iterable<CollectionFixtures>, op: OperationSpec, r: GeneratedRequest): Promise<GeneratedRequest> {
  const nested = nestedFor(all, op);
  if (!nested) return r;
  const existing = (name: string) => (r.path[name] ?? { kind: 'existing' }).kind === 'existing';
  if (!nested.parentParams.some(existing) || !(await nested.enter())) return r;
  const path: Record<string, PathValue> = { ...r.path };
  for (const [name, value] of Object.entries(nested.scope)) if (existing(name)) path[name] = { kind: 'literal', value, encode: true };
  return { ...r, path };
}

/**
 * The fixtures of a run, by collection name: the top-level collections', then each collection's
 * under a record, under its parent's (a parent's record is made before its children's, and, the
 * map taken backwards, deleted after them).
 */
export function runFixtures(
  session: Session,
  collections: readonly CollectionSpec[],
  nested: readonly NestedCollection[],
  arbs: SchemaArbitraries,
): Map<string, CollectionFixtures> {
  const out = new Map<string, CollectionFixtures>(collections.map((c) => [c.name, new CollectionFixtures(session, c, arbs)]));
  for (const n of nested) {
    const parent = [...out.values()].find((f) => f.collection === n.parent);
    if (parent) out.set(n.collection.name, new NestedFixtures(session, n, arbs, parent));
  }
  return out;
}

/** New fixtures of `c`: under `parent`, or under new fixtures of its own parents, when it is under a record. */
export function fixturesOf(
  session: Session,
  c: CollectionSpec,
  nested: readonly NestedCollection[],
  arbs: SchemaArbitraries,
  parent?: CollectionFixtures,
): CollectionFixtures {
  const n = nested.find((x) => x.collection === c);
  if (!n) return new CollectionFixtures(session, c, arbs);
  return new NestedFixtures(session, n, arbs, parent ?? fixturesOf(session, n.parent, nested, arbs));
}
