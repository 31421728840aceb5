/**
 * Typed routes. `route('get', '/accounts/{id}', resolver)` takes the path as openapi.yaml writes
 * it, and the generated `paths` (src/api/schema.d.ts) type the rest: the path must be a documented
 * path with that method, `params` holds exactly its path parameters, `json()` gives the documented
 * JSON body, and the resolver answers one of the documented statuses with the body documented for
 * it (or any Response, for a binary body). A handler that drifts from the document fails typecheck;
 * a document without the operation fails at start. An operation the document secures is only
 * resolved for a caller `authenticate` accepts, holding the roles it names (./gate.ts).
 */
import { http, type HttpHandler } from 'msw';
import type { paths } from '../../src/index.ts';
import type { Authenticate, Identity } from '../auth.ts';
import { readJson } from '../body.ts';
import type { Contract } from '../contract.ts';
import { httpError } from '../errors.ts';
import { createGate } from './gate.ts';
import { SpecError, type OperationSpec } from '../../openapi-kit/index.ts';

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Operation = { responses: object };

/** The documented paths that have an operation for `method`. */
export type PathOf<M extends Method> = { [P in keyof paths]: paths[P][M] extends Operation ? P : never }[keyof paths];
export type OperationAt<P extends keyof paths, M extends Method> = Extract<paths[P][M], Operation>;

type ParamsOf<O> = O extends { parameters: { path: infer X } } ? X : Record<string, never>;
type JsonBodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type ResponsesOf<O> = O extends { responses: infer R } ? R : never;

/**
 * An answer of the operation: a documented status with the JSON body documented for it, the bytes
 * of one of its documented media types (an image), or no body where it documents none.
 */
export type Reply<O> = {
  [S in keyof ResponsesOf<O>]: ResponsesOf<O>[S] extends { content: { 'application/json': infer B } }
    ? { status: S; body: B; headers?: Record<string, string> }
    : ResponsesOf<O>[S] extends { content: infer C }
      ? { status: S; bytes: Uint8Array; type: keyof C & string; headers?: Record<string, string> }
      : { status: S; body?: never; headers?: Record<string, string> };
}[keyof ResponsesOf<O>];

export interface RouteRequest<O> {
  request: Request;
  params: ParamsOf<O>;
  /** The operation as openapi.yaml describes it. */
  operation: OperationSpec;
  /**
   * Who is calling: for an operation openapi.yaml secures, the identity `authenticate` read from
   * the request before the resolver runs (a request it refuses is answered 401, one without the
   * role 403, without reaching the resolver); null for an open operation.
   */
  identity: Identity | null;
  /** The JSON body, read within its `x-max-body-bytes` (else 413), as JSON (415, 400) and valid against the operation's schema (400). */
  json(): Promise<JsonBodyOf<O>>;
}

export type Resolver<O> = (input: RouteRequest<O>) => Reply<O> | Promise<Reply<O>>;

export interface Router {
  route<M extends Method, P extends PathOf<M>>(method: M, path: P, resolver: NoInfer<Resolver<OperationAt<P, M>>>): HttpHandler;
  /**
   * The routes in the order OpenAPI matches paths, a literal path before a template it also
   * matches (`/user/profile/myprofile` before `/user/profile/{id}`), each path's routes followed by
   * a handler answering any other method with 405 and the Allow header.
   */
  inPathOrder(routes: readonly HttpHandler[]): HttpHandler[];
}

/** `/accounts/{id}` as MSW writes it: `/accounts/:id`. */
const mswPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

function toResponse(reply: {
  status: PropertyKey;
  body?: unknown;
  bytes?: Uint8Array;
  type?: string;
  headers?: Record<string, string>;
}): Response {
  const headers = new Headers(reply.headers);
  const status = Number(reply.status);
  if ('body' in reply) return Response.json(reply.body, { status, headers });
  // Stryker disable next-line LogicalOperator: Reply<O> gives bytes and their type together or neither, so && and || agree on every reply a route may give
  if (reply.bytes && reply.type) {
    headers.set('content-type', reply.type);
    return new Response(reply.bytes.slice().buffer, { status, headers });
  }
  return new Response(null, { status, headers });
}

/**
 * `prefix` is where the API's paths start for MSW: `/api` on the page's origin in the browser, or
 * any scheme and host (`ANY_ORIGIN`) then `/api` in the Node server, which only sees its own requests.
 */
export function createRouter(contract: Contract, prefix: string, authenticate: Authenticate): Router {
  const admit = createGate(authenticate);
  const routed = new WeakMap<HttpHandler, { path: string; method: string }>();

  async function readBody(request: Request, operation: OperationSpec): Promise<unknown> {
    const media = operation.body?.content['application/json'];
    if (!media) throw new Error(`${operation.id} documents no JSON body`);
    const value = await readJson(request, media.maxBodyBytes ?? Number.POSITIVE_INFINITY);
    const problem = contract.checkAt(media.pointer, value, 'body');
    if (problem) throw httpError(400, problem);
    return value;
  }

  return {
    route(method, path, resolver) {
      const operation = contract.spec.find(method, path);
      if (!operation) throw new SpecError(`openapi.yaml has no ${method.toUpperCase()} ${path}`);
      const handler = http[method](`${prefix}${mswPath(path)}`, async ({ request, params }) => {
        try {
          // Who may call comes first, as a gateway in front of a real backend checks it: an
          // anonymous caller, or a member without the role, learns nothing else (not even whether an id exists).
          const identity = await admit(request, operation);
          const reply = await resolver({
            request,
            identity,
            // MSW matched the path template, so these are its parameters, decoded.
            params: params as ParamsOf<OperationAt<typeof path, typeof method>>,
            operation,
            // The body's type is the schema it has just been validated against.
            json: () => readBody(request, operation) as Promise<JsonBodyOf<OperationAt<typeof path, typeof method>>>,
          });
          return toResponse(reply);
        } catch (error) {
          if (error instanceof Response) return error;
          console.error(`Mock backend failure in ${operation.id}`, error);
          return httpError(500, 'The mock backend failed; see its log');
        }
      });
      routed.set(handler, { path, method: operation.method });
      return handler;
    },
    inPathOrder(routes) {
      const byPath = new Map<string, HttpHandler[]>();
      for (const handler of routes) {
        const path = routed.get(handler)?.path;
        if (path === undefined) throw new Error('inPathOrder takes the handlers route() made');
        byPath.set(path, [...(byPath.get(path) ?? []), handler]);
      }
      const templates = (path: string) => path.split('{').length;
      return [...byPath]
        .sort(([a], [b]) => templates(a) - templates(b))
        .flatMap(([path, handlers]) => {
          const allow = handlers.map((h) => routed.get(h)!.method).join(', ');
          return [...handlers, http.all(`${prefix}${mswPath(path)}`, () => httpError(405, 'Method not allowed', { allow }))];
        });
    },
  };
}
