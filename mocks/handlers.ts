import { delay, http } from 'msw';
import type { Contract, OpenApiDocument } from './contract.ts';
import { createContract } from './contract.ts';
import { createDatabase } from './db.ts';
import { errorResponse, HttpError } from './errors.ts';
import { handleCollection } from './collections.ts';
import { createProfileStore } from './profile.ts';

/** Legacy URLs and the collection each is served as. */
export const ALIASES: ReadonlyArray<readonly [from: string, to: string]> = [
  ['notifications/own', 'notifications'],
  ['datapower/serviceproxy', 'serviceproxy'],
  ['nas/cluster', 'cluster'],
  ['layer7/my.cnf', 'mycnf'],
];

export function rewriteAlias(path: string): string {
  for (const [from, to] of ALIASES) {
    if (path === from || path.startsWith(`${from}/`)) return to + path.slice(from.length);
  }
  return path;
}

export interface MockOptions {
  /** The parsed openapi.yaml: the mock validates every record against it. */
  spec: OpenApiDocument;
  /** Answer delay, as a slow network would add. */
  delayMs: number;
  /** Where the API lives on the origin. */
  basePath?: string;
}

export interface MockBackend {
  /** Answers one API request; `path` is the part after the base path. */
  answer(request: Request, path: string): Promise<Response>;
  readonly contract: Contract;
  basePath: string;
}

/** The mock API as a plain function of a request: the same code runs in the worker and in Node. */
export async function createMockBackend({ spec, delayMs, basePath = '/api' }: MockOptions): Promise<MockBackend> {
  const contract = createContract(spec);
  const db = await createDatabase(contract);
  const profile = createProfileStore(contract);

  const commands: Record<string, () => Promise<void>> = {
    async reset() {
      await db.reset();
      profile.reset();
    },
  };

  async function route(request: Request, path: string): Promise<Response> {
    const segments = rewriteAlias(path).split('/').filter(Boolean).map(decodeURIComponent);
    const [head, ...rest] = segments;
    if (head === 'user' && rest[0] === 'profile') return profile.handle(request, rest.slice(1), basePath);
    if (head === 'commands' && rest.length === 1) {
      if (request.method !== 'POST') throw new HttpError(405, 'Method not allowed', { allow: 'POST' });
      const command = commands[rest[0]!];
      if (!command || !Object.hasOwn(commands, rest[0]!)) throw new HttpError(500, `Unknown command '${rest[0]}'`);
      await command();
      return new Response(null, { status: 204 });
    }
    const table = head === undefined ? undefined : db.table(head);
    if (!table) throw new HttpError(404, `Collection '${head ?? ''}' not found`);
    if (rest.length > 1) throw new HttpError(404, `No resource at '${segments.join('/')}'`);
    return handleCollection({ request, table, id: rest[0], base: basePath }, { contract, db });
  }

  return {
    contract,
    basePath,
    async answer(request, path) {
      if (delayMs > 0) await delay(delayMs);
      try {
        return await route(request, path);
      } catch (error) {
        if (error instanceof HttpError) return errorResponse(error.status, error.message, error.headers);
        console.error('Mock backend failure', error);
        return errorResponse(500, 'The mock backend failed; see its log');
      }
    },
  };
}

/**
 * MSW handlers for every URL under the base path; other URLs pass through untouched.
 * In the browser a relative path means the page's own origin; the Node server, which answers
 * only its own requests, matches the path on any origin.
 */
export function createHandlers(backend: MockBackend, { anyOrigin = false } = {}) {
  const prefix = backend.basePath.replace(/\/$/, '');
  return [
    http.all(`${anyOrigin ? '*' : ''}${prefix}/*`, ({ request }) => {
      const { pathname } = new URL(request.url);
      return backend.answer(request, pathname.slice(prefix.length + 1));
    }),
  ];
}
