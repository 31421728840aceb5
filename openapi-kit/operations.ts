/**
 * The operations of an OpenAPI document, with their parameters, request bodies (their files and
 * `x-max-body-bytes`), responses (headers, examples, content), security and the roles it asks for.
 */
import { follow, isRecord, pointerToken, SpecError, type JsonSchema, type OpenApiDocument } from './document.ts';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

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
