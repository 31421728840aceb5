/**
 * Reading an OpenAPI 3.1 document: its operations, with their parameters, request bodies,
 * responses and limits, and the REST collections it describes. A parse result goes in; nothing
 * here does I/O, so the same code runs in the browser (the dev mock) and in Node.
 *
 * What the standard keywords cannot state is read from vendor extensions, described in
 * openapi.yaml's info.description: `x-max-body-bytes` on a request body's media type,
 * `x-max-records` on a collection's path, `x-sort` on a collection's list and
 * `x-body-id-matches-path` on a collection's replace.
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

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

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

export interface ParamSpec {
  name: string;
  in: string;
  required: boolean;
  schema: JsonSchema;
  /** JSON pointer of the schema in the document. */
  pointer: string;
  /** How the value is written (`simple`, `form`…), when the document says; see ./parameters.ts. */
  style?: string;
  explode?: boolean;
}

export interface MediaSpec {
  media: string;
  schema: JsonSchema;
  pointer: string;
  /** Form fields that carry a file (`contentMediaType`, or an `anyOf` of them). */
  fileFields: string[];
  /** Media types each file field accepts: its `encoding.contentType`, else its `contentMediaType`s. */
  fileTypes: Record<string, string[]>;
  /** Largest file each file field accepts (`maxLength` of its binary string), when stated. */
  maxFileBytes: Record<string, number>;
  /** Largest body of this media type (`x-max-body-bytes`), when stated. */
  maxBodyBytes?: number;
}

export interface HeaderSpec {
  name: string;
  required: boolean;
  schema: JsonSchema;
  pointer: string;
  /** The documented example value (`example`, else the first of `examples`), when there is one. */
  example?: unknown;
}

export interface ContentSpec {
  media: string;
  schema?: JsonSchema;
  pointer?: string;
  /** The documented example values (`example` and `examples`), references resolved. */
  examples: unknown[];
  /** The named examples (`examples`), by name, references resolved: what `Prefer: example=NAME` picks. */
  namedExamples: Record<string, unknown>;
}

export interface ResponseSpec {
  /** As written: `'200'`, `'4XX'`, `'default'`. */
  status: string;
  description: string;
  /** Pointer of the response object (after references). */
  pointer: string;
  headers: HeaderSpec[];
  /** null when the response has no body. */
  content: ContentSpec[] | null;
}

export interface OperationSpec {
  id: string;
  /** Upper case, as in a Request. */
  method: string;
  /** The path template as written, e.g. `/symbols/{id}`. */
  path: string;
  /** Served at the origin's root (`servers: [{ url: / }]` on the path) rather than under the API base path. */
  root: boolean;
  summary: string;
  description: string;
  params: ParamSpec[];
  body?: { required: boolean; content: Record<string, MediaSpec> };
  /** Documented statuses as written, in document order. */
  statuses: string[];
  responses: Record<string, ResponseSpec>;
  /**
   * The security requirements in force (the operation's `security`, else the document's): each
   * entry is one acceptable way, scheme name → scopes. Empty when the operation is open.
   */
  security: Array<Record<string, string[]>>;
  /** Whether a request must carry credentials: a requirement applies and none of them is the empty `{}`. */
  secured: boolean;
  /**
   * The roles a caller must hold, whichever requirement it meets: OpenAPI 3.1 reads the list of a
   * scheme that is neither OAuth 2 nor OpenID Connect (`bearer: [admin]`) as role names, where
   * those two list scopes. Empty for an open operation, or one any signed-in caller may call.
   */
  roles: string[];
}

/** The roles every requirement asks for (see OperationSpec.roles). */
function rolesOf(doc: OpenApiDocument, security: Array<Record<string, string[]>>, secured: boolean): string[] {
  if (!secured) return [];
  const schemes = isRecord(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const scopeLists = (name: string) => {
    const scheme = schemes[name];
    const type = isRecord(scheme) ? scheme.type : undefined;
    return type === 'oauth2' || type === 'openIdConnect';
  };
  const perRequirement = security.map(
    (requirement) => new Set(Object.entries(requirement).flatMap(([name, list]) => (scopeLists(name) ? [] : list))),
  );
  const [first, ...rest] = perRequirement;
  return [...(first ?? [])].filter((role) => rest.every((roles) => roles.has(role)));
}

/** An OpenAPI `security` array as read here (anything that is no requirement object is left out). */
function securityOf(raw: unknown): Array<Record<string, string[]>> | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw
    .filter(isRecord)
    .map((requirement) =>
      Object.fromEntries(Object.entries(requirement).map(([name, scopes]) => [name, Array.isArray(scopes) ? scopes.map(String) : []])),
    );
}

/** A file field's schema: `contentMediaType`, or an `anyOf` of file types (e.g. PNG, JPEG or WebP). */
function fileBranches(doc: unknown, schema: Record<string, unknown>, pointer: string): Array<Record<string, unknown>> | null {
  const { node } = follow(doc, schema, pointer);
  if (typeof node.contentMediaType === 'string') return [node];
  if (Array.isArray(node.anyOf) && node.anyOf.length > 0) {
    // Stryker disable next-line StringLiteral: only the node is kept; follow names the start pointer in no error (a loop is reported where it is found)
    const branches = node.anyOf.map((b, i) => follow(doc, b, `${pointer}/anyOf/${i}`).node);
    if (branches.every((b) => typeof b.contentMediaType === 'string')) return branches;
  }
  return null;
}

function readMedia(doc: unknown, media: string, raw: unknown, pointer: string): MediaSpec {
  const object = isRecord(raw) ? raw : {};
  const schema = isRecord(object.schema) ? object.schema : {};
  // Stryker disable next-line StringLiteral: the resolved pointer only reaches fileBranches, which keeps nodes alone, so no caller sees it
  const resolved = follow(doc, schema, `${pointer}/schema`);
  const props = isRecord(resolved.node.properties) ? resolved.node.properties : {};
  const encoding = isRecord(object.encoding) ? object.encoding : {};
  const spec: MediaSpec = { media, schema, pointer: `${pointer}/schema`, fileFields: [], fileTypes: {}, maxFileBytes: {} };
  for (const [field, sub] of Object.entries(props)) {
    // Stryker disable next-line StringLiteral: fileBranches keeps only nodes, so this pointer is never seen
    const branches = fileBranches(doc, isRecord(sub) ? sub : {}, `${resolved.pointer}/properties/${pointerToken(field)}`);
    if (!branches) continue;
    spec.fileFields.push(field);
    const declared = isRecord(encoding[field]) ? (encoding[field] as Record<string, unknown>).contentType : undefined;
    spec.fileTypes[field] =
      typeof declared === 'string'
        ? declared.split(',').map((t) => t.trim().toLowerCase())
        : branches.map((b) => String(b.contentMediaType).toLowerCase());
    const sizes = branches.map((b) => b.maxLength);
    if (sizes.every((s) => typeof s === 'number')) spec.maxFileBytes[field] = Math.max(...(sizes as number[]));
  }
  const max = object['x-max-body-bytes'];
  if (max !== undefined) {
    if (typeof max !== 'number' || !Number.isInteger(max) || max <= 0)
      throw new SpecError(`${pointer}/x-max-body-bytes must be a positive integer`);
    spec.maxBodyBytes = max;
  }
  return spec;
}

function namedExamplesOf(doc: unknown, media: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isRecord(media.examples)) {
    for (const [name, raw] of Object.entries(media.examples)) {
      // Stryker disable next-line StringLiteral: only the node is kept; follow names the start pointer in no error (a loop is reported where it is found)
      const example = follow(doc, raw, `examples/${name}`).node;
      if ('value' in example) out[name] = example.value;
    }
  }
  return out;
}

function examplesOf(doc: unknown, media: Record<string, unknown>): unknown[] {
  return [...('example' in media ? [media.example] : []), ...Object.values(namedExamplesOf(doc, media))];
}

function readResponse(doc: unknown, status: string, raw: unknown, pointer: string): ResponseSpec {
  const { node, pointer: at } = follow(doc, raw, pointer);
  const headers: HeaderSpec[] = [];
  for (const [name, rawHeader] of Object.entries(isRecord(node.headers) ? node.headers : {})) {
    const header = follow(doc, rawHeader, `${at}/headers/${pointerToken(name)}`);
    const spec: HeaderSpec = {
      name,
      required: header.node.required === true,
      schema: isRecord(header.node.schema) ? header.node.schema : {},
      pointer: `${header.pointer}/schema`,
    };
    const [example] = examplesOf(doc, header.node);
    if (example !== undefined) spec.example = example;
    headers.push(spec);
  }
  let content: ContentSpec[] | null = null;
  if (isRecord(node.content)) {
    content = Object.entries(node.content).map(([media, rawMedia]) => {
      const m = isRecord(rawMedia) ? rawMedia : {};
      const spec: ContentSpec = { media: media.toLowerCase(), examples: examplesOf(doc, m), namedExamples: namedExamplesOf(doc, m) };
      if (isRecord(m.schema)) {
        spec.schema = m.schema;
        spec.pointer = `${at}/content/${pointerToken(media)}/schema`;
      }
      return spec;
    });
  }
  return { status, description: typeof node.description === 'string' ? node.description : '', pointer: at, headers, content };
}

/** Every operation of the document. Throws a SpecError when one cannot be read (no operationId, a broken reference). */
export function operationSpecs(doc: OpenApiDocument): OperationSpec[] {
  const out: OperationSpec[] = [];
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isRecord(item)) continue;
    const itemPointer = `/paths/${pointerToken(path)}`;
    const root = Array.isArray(item.servers) && item.servers.some((s) => isRecord(s) && s.url === '/');
    const shared = Array.isArray(item.parameters) ? item.parameters.map((p, i) => [p, `${itemPointer}/parameters/${i}`] as const) : [];
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const opPointer = `${itemPointer}/${method}`;
      // operationId is optional in OpenAPI: an operation without one is named by its method and path.
      const id = typeof op.operationId === 'string' && op.operationId !== '' ? op.operationId : `${method.toUpperCase()} ${path}`;
      if (seen.has(id)) throw new SpecError(`operationId '${id}' is used twice`);
      seen.add(id);
      const own = Array.isArray(op.parameters) ? op.parameters.map((p, i) => [p, `${opPointer}/parameters/${i}`] as const) : [];
      const params = new Map<string, ParamSpec>();
      for (const [raw, at] of [...shared, ...own]) {
        const p = follow(doc, raw, at);
        const param: ParamSpec = {
          name: String(p.node.name),
          in: String(p.node.in),
          required: p.node.required === true,
          schema: isRecord(p.node.schema) ? p.node.schema : {},
          pointer: `${p.pointer}/schema`,
        };
        if (typeof p.node.style === 'string') param.style = p.node.style;
        if (typeof p.node.explode === 'boolean') param.explode = p.node.explode;
        params.set(`${param.in}:${param.name}`, param);
      }
      const responses: Record<string, ResponseSpec> = {};
      for (const [status, raw] of Object.entries(isRecord(op.responses) ? op.responses : {})) {
        responses[status] = readResponse(doc, status, raw, `${opPointer}/responses/${pointerToken(status)}`);
      }
      const security = securityOf(op.security) ?? securityOf(doc.security) ?? [];
      const secured = security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0);
      const spec: OperationSpec = {
        id,
        method: method.toUpperCase(),
        path,
        root,
        summary: typeof op.summary === 'string' ? op.summary : '',
        description: typeof op.description === 'string' ? op.description : '',
        params: [...params.values()],
        statuses: Object.keys(responses),
        responses,
        security,
        secured,
        roles: rolesOf(doc, security, secured),
      };
      if (op.requestBody !== undefined) {
        const body = follow(doc, op.requestBody, `${opPointer}/requestBody`);
        const content: Record<string, MediaSpec> = {};
        for (const [media, rawMedia] of Object.entries(isRecord(body.node.content) ? body.node.content : {})) {
          content[media] = readMedia(doc, media, rawMedia, `${body.pointer}/content/${pointerToken(media)}`);
        }
        spec.body = { required: body.node.required === true, content };
      }
      out.push(spec);
    }
  }
  return out;
}

/** The documented response for a status: the exact code, then its range (`4XX`), then `default`. */
export function responseFor(op: OperationSpec, status: number): ResponseSpec | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
}

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

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type PathMatcher = (method: string, pathname: string) => OperationSpec | undefined;

/** Each list of operations' matcher, made once: every request the mock answers is matched, some of them thrice. */
const matchers = new WeakMap<readonly OperationSpec[], PathMatcher>();

function pathMatcher(ops: readonly OperationSpec[]): PathMatcher {
  const templated = (o: OperationSpec) => o.path.match(/\{/g)?.length ?? 0;
  const byMethod = new Map<string, Array<{ op: OperationSpec; pattern: RegExp }>>();
  for (const op of [...ops].sort((a, b) => templated(a) - templated(b))) {
    const pattern = new RegExp(`^${escapeRegExp(op.path).replace(/\\\{[^}]+\\\}/g, '[^/]+')}$`);
    byMethod.set(op.method, [...(byMethod.get(op.method) ?? []), { op, pattern }]);
  }
  return (method, pathname) => byMethod.get(method.toUpperCase())?.find(({ pattern }) => pattern.test(pathname))?.op;
}

/** The operation a concrete path (without the API base path) reaches; literal paths win over templates. */
export function matchOperation(ops: readonly OperationSpec[], method: string, pathname: string): OperationSpec | undefined {
  let match = matchers.get(ops);
  if (!match) {
    match = pathMatcher(ops);
    matchers.set(ops, match);
  }
  return match(method, pathname);
}

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
