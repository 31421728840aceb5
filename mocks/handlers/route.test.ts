// @vitest-environment node
import { getResponse, http, type HttpHandler } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rejectAll } from '../auth.ts';
import { createContract } from '../contract.ts';
import { loadSpecCached } from '../spec.node.ts';
import { createRouter, type Resolver } from './route.ts';
import { error } from './server.test-support.ts';

const contract = createContract(loadSpecCached());
const router = () => createRouter(contract, '*/api', rejectAll);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('route', () => {
  it('refuses at start a path and method openapi.yaml does not document', () => {
    // The typed signature refuses such a path at compile time; a route built from a string is checked at start.
    const untyped = router().route as unknown as (method: string, path: string, resolver: Resolver<unknown>) => HttpHandler;
    expect(() => untyped('get', '/nowhere', () => ({ status: 200 }) as never)).toThrow('openapi.yaml has no GET /nowhere');
    expect(() => untyped('patch', '/symbols', () => ({ status: 200 }) as never)).toThrow('openapi.yaml has no PATCH /symbols');
  });

  it('answers 500 and logs why when a resolver reads a JSON body its operation does not document', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = router().route('get', '/symbols', async ({ json }) => json());
    const response = await getResponse([handler], new Request('http://localhost/api/symbols'));
    expect([response?.status, await response?.json()]).toEqual([
      500,
      error(500, 'Internal Server Error', 'The mock backend failed; see its log'),
    ]);
    expect(logged).toHaveBeenCalledWith('Mock backend failure in listSymbols', new Error('listSymbols documents no JSON body'));
  });
});

describe('inPathOrder', () => {
  it('refuses a handler route() did not make', () => {
    expect(() => router().inPathOrder([http.get('*/api/symbols', () => undefined)])).toThrow('inPathOrder takes the handlers route() made');
  });

  it('answers another method on a path with 405, naming the methods it has', async () => {
    const { route, inPathOrder } = router();
    const handlers = inPathOrder([
      route('get', '/symbols', () => ({ status: 200, body: [] })),
      route('post', '/symbols', () => ({ status: 400, body: error(400, 'Bad Request', 'no') })),
    ]);
    const response = await getResponse(handlers, new Request('http://localhost/api/symbols', { method: 'PUT' }));
    expect([response?.status, response?.headers.get('allow'), await response?.json()]).toEqual([
      405,
      'GET, POST',
      error(405, 'Method Not Allowed', 'Method not allowed'),
    ]);
  });
});
