/**
 * The four REST collections, one typed route per documented path and method:
 *
 * | method | path               | answer                                                 |
 * |--------|--------------------|--------------------------------------------------------|
 * | GET    | /{collection}      | 200 list, filtered by equality, ordered by its x-sort  |
 * | POST   | /{collection}      | 201 + Location; 409 id exists; 422 full or no id       |
 * | GET    | /{collection}/{id} | 200 record; 404 missing                                |
 * | PUT    | /{collection}/{id} | 200 record; 400 URL id ≠ body id; 404 missing          |
 * | DELETE | /{collection}/{id} | 204; 404 missing                                       |
 *
 * Any other method answers 405 (handlers/index.ts); the limit of each collection is its
 * `x-max-records` in openapi.yaml. Notifications are answered as each caller sees them
 * (./notifications.ts), through a view of their records.
 */
import type { HttpHandler } from 'msw';
import { compareSortValues } from '../../openapi-kit/index.ts';
import type { CollectionName, Records } from '../db.ts';
import { httpError } from '../errors.ts';
import type { MockContext } from './context.ts';

/**
 * How a caller sees a record: as it is answered to them, or null when it is not theirs to see. A
 * list's filters compare the values seen.
 */
export type View<Row> = (row: Row) => Row | null;

/** The generic behaviour of one collection, each verb answering as the collection's routes document. */
export function restCollection<N extends CollectionName>({ contract, db, basePath }: MockContext, name: N) {
  type Row = Records[N];
  const table = db.collections[name];
  const spec = contract.spec.collections.find((c) => c.name === name);
  const limit = spec?.maxRecords ?? Number.POSITIVE_INFINITY;
  const order = spec?.order;
  const byId = (id: string) => table.findFirst((q) => q.where((row) => row.id === id));
  const notFound = (id: string) => httpError(404, `Record '${id}' not found in collection '${name}'`);
  const plain = (row: Row): Row => ({ ...row });

  /** The next numeric id, or null when the ids in use leave none to give. */
  function nextId(): string | null {
    const numeric = table.all().flatMap((row) => (/^\d+$/.test(row.id) ? [Number(row.id)] : []));
    const next = Math.max(0, ...numeric) + 1;
    return Number.isSafeInteger(next) ? String(next) : null;
  }

  return {
    list(request: Request, view: View<Row> = plain) {
      const query = new URL(request.url).searchParams;
      const problem = contract.checkQuery(`/${name}`, query);
      if (problem) throw httpError(400, problem);
      // Every query parameter filters by equality, documented or not: a field no record has matches none.
      const fields = (row: Row): Record<string, unknown> => row;
      let rows = table
        .all()
        .flatMap((row) => view(plain(row)) ?? [])
        .filter((row) => [...query].every(([key, value]) => key in row && String(fields(row)[key]) === value));
      if (order) {
        const sign = order.descending ? -1 : 1;
        rows = rows.sort((a, b) => sign * compareSortValues(fields(a)[order.field], fields(b)[order.field]));
      }
      return { status: 200 as const, body: rows };
    },

    /** The record with this id as `view` shows it (404 when there is none, or `view` hides it). */
    read(id: string, view: View<Row> = plain) {
      const row = byId(id);
      const seen = row ? view(plain(row)) : null;
      if (!seen) throw notFound(id);
      return { status: 200 as const, body: seen };
    },

    /** Whether the collection holds a record with this id. */
    has(id: string): boolean {
      return byId(id) !== undefined;
    },

    async create(input: Omit<Row, 'id'> & { id?: string }) {
      if (input.id !== undefined && byId(input.id)) {
        throw httpError(409, `Record '${input.id}' already exists in collection '${name}'`);
      }
      if (table.count() >= limit) throw httpError(422, `Collection '${name}' holds at most ${limit} records`);
      const id = input.id ?? nextId();
      if (id === null) throw httpError(422, `No id can be generated for collection '${name}': send one in the body`);
      // The collection's schema checks the record as it is stored.
      const row = await table.create({ ...input, id } as Row);
      return { status: 201 as const, body: plain(row), headers: { location: `${basePath}/${name}/${encodeURIComponent(id)}` } };
    },

    async replace(id: string, input: Omit<Row, 'id'> & { id?: string }) {
      if (input.id !== undefined && input.id !== id) {
        throw httpError(400, `Id in the URL ('${id}') does not match the id in the body ('${input.id}')`);
      }
      const existing = byId(id);
      if (!existing) throw notFound(id);
      const next: Record<string, unknown> = { ...input, id };
      const row = await table.update(existing, {
        data(draft) {
          const fields: Record<string, unknown> = draft;
          for (const key of Object.keys(fields)) if (!(key in next)) delete fields[key];
          Object.assign(fields, next);
        },
      });
      return { status: 200 as const, body: plain(row ?? existing) };
    },

    remove(id: string) {
      const existing = byId(id);
      if (!existing) throw notFound(id);
      table.delete(existing);
      return { status: 204 as const };
    },
  };
}

/**
 * The routes of accounts and symbols; notifications (./notifications.ts) and push subscriptions
 * (./subscriptions.ts) have their own.
 */
export function collectionHandlers(mock: MockContext): HttpHandler[] {
  const { route } = mock;
  const accounts = restCollection(mock, 'accounts');
  const symbols = restCollection(mock, 'symbols');
  return [
    route('get', '/accounts', ({ request }) => accounts.list(request)),
    route('post', '/accounts', async ({ json }) => accounts.create(await json())),
    route('get', '/accounts/{id}', ({ params }) => accounts.read(params.id)),
    route('put', '/accounts/{id}', async ({ params, json }) => accounts.replace(params.id, await json())),
    route('delete', '/accounts/{id}', ({ params }) => accounts.remove(params.id)),

    route('get', '/symbols', ({ request }) => symbols.list(request)),
    route('post', '/symbols', async ({ json }) => symbols.create(await json())),
    route('get', '/symbols/{id}', ({ params }) => symbols.read(params.id)),
    route('put', '/symbols/{id}', async ({ params, json }) => symbols.replace(params.id, await json())),
    route('delete', '/symbols/{id}', ({ params }) => symbols.remove(params.id)),
  ];
}
