import type { Contract } from './contract.ts';
import type { Database, Row, Table } from './db.ts';
import { HttpError, json } from './errors.ts';
import { readJson } from './body.ts';

/**
 * In-memory REST collection semantics, one function per verb.
 *
 * | method | path              | answer                                                  |
 * |--------|-------------------|---------------------------------------------------------|
 * | GET    | /{collection}     | 200 list, filtered by equality on top-level fields      |
 * | POST   | /{collection}     | 201 + Location; 409 id exists; 422 full or no id        |
 * | GET    | /{collection}/{id}| 200 record; 404 missing                                 |
 * | PUT    | /{collection}/{id}| 200 record; 400 URL id ≠ body id; 404 missing           |
 * | DELETE | /{collection}/{id}| 204; 404 missing                                        |
 * | other  | either            | 405 'Method not allowed'                                |
 */
export interface CollectionRequest {
  request: Request;
  table: Table;
  id: string | undefined;
  /** The URL prefix of the API, e.g. `/api`, for Location headers. */
  base: string;
}

type Verb = (ctx: CollectionRequest, deps: Deps) => Promise<Response> | Response;
interface Deps {
  contract: Contract;
  db: Database;
}

const strip = (row: Row): Row => ({ ...row });
const byId = (table: Table, id: string) => table.rows.findFirst((q) => q.where((row) => row.id === id));

function list({ request, table }: CollectionRequest, { contract }: Deps): Response {
  const query = new URL(request.url).searchParams;
  const problem = contract.checkQuery(`/${table.name}`, query);
  if (problem) throw new HttpError(400, problem);
  let rows = table.rows.all().map(strip);
  for (const [key, value] of query) {
    rows = rows.filter((row) => key in row && String(row[key]) === value);
  }
  if (table.name === 'notifications') {
    rows.sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
  }
  return json(rows);
}

function read({ table, id }: CollectionRequest): Response {
  const row = byId(table, id!);
  if (!row) throw notFound(table, id!);
  return json(strip(row));
}

/** The next numeric id, or null when the ids in use leave none to give. */
function nextId(table: Table): string | null {
  let max = 0;
  for (const row of table.rows.all()) {
    if (/^\d+$/.test(row.id)) max = Math.max(max, Number(row.id));
  }
  const next = max + 1;
  return Number.isSafeInteger(next) ? String(next) : null;
}

async function create({ request, table, base }: CollectionRequest, { contract }: Deps): Promise<Response> {
  const body = await readJson(request);
  const problem = contract.check(table.spec.input, body);
  if (problem) throw new HttpError(400, problem);
  const input = body as Partial<Row>;
  if (input.id !== undefined && byId(table, input.id)) {
    throw new HttpError(409, `Record '${input.id}' already exists in collection '${table.name}'`);
  }
  if (table.rows.count() >= table.spec.limit) {
    throw new HttpError(422, `Collection '${table.name}' holds at most ${table.spec.limit} records`);
  }
  const id = input.id ?? nextId(table);
  if (id === null) {
    throw new HttpError(422, `No id can be generated for collection '${table.name}': send one in the body`);
  }
  const row = await table.rows.create({ ...input, id } as Row);
  return json(strip(row), 201, { location: `${base}/${table.name}/${encodeURIComponent(id)}` });
}

async function replace({ request, table, id }: CollectionRequest, { contract }: Deps): Promise<Response> {
  const body = await readJson(request);
  const problem = contract.check(table.spec.input, body);
  if (problem) throw new HttpError(400, problem);
  const input = body as Partial<Row>;
  if (input.id !== undefined && input.id !== id) {
    throw new HttpError(400, `Id in the URL ('${id}') does not match the id in the body ('${input.id}')`);
  }
  const existing = byId(table, id!);
  if (!existing) throw notFound(table, id!);
  const next = { ...input, id } as Row;
  const row = await table.rows.update(existing, {
    data(draft: Row) {
      for (const key of Object.keys(draft)) if (!(key in next)) delete draft[key];
      Object.assign(draft, next);
    },
  });
  return json(strip((row ?? next) as Row));
}

function remove({ table, id }: CollectionRequest): Response {
  const existing = byId(table, id!);
  if (!existing) throw notFound(table, id!);
  table.rows.delete(existing);
  return new Response(null, { status: 204 });
}

function notFound(table: Table, id: string) {
  return new HttpError(404, `Record '${id}' not found in collection '${table.name}'`);
}

const ROUTES: Record<'collection' | 'item', Partial<Record<string, Verb>>> = {
  collection: { GET: list, POST: create },
  item: { GET: read, PUT: replace, DELETE: remove },
};

export function handleCollection(ctx: CollectionRequest, deps: Deps): Promise<Response> | Response {
  const routes = ROUTES[ctx.id === undefined ? 'collection' : 'item'];
  const verb = routes[ctx.request.method];
  if (!verb) {
    throw new HttpError(405, 'Method not allowed', { allow: Object.keys(routes).join(', ') });
  }
  return verb(ctx, deps);
}
