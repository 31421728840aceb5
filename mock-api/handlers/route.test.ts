// @vitest-environment node
import { getResponse, http, type HttpHandler } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rejectAll } from '../auth.ts';
import { createContract } from '../contract.ts';
import { loadSpecCached } from '../../openapi-kit/node.ts';
import { createRouter, type Resolver } from './route.ts';
import { error } from '../test/server.test-support.ts';

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

describe('a reply of bytes', () => {
  it('answers exactly the bytes of the view it is given, with their type', async () => {
    const buffer = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const handler = router().route('get', '/user/profile/{id}/avatar', () => ({
      status: 200,
      bytes: buffer.subarray(2, 5),
      type: 'image/png',
    }));
    const response = await getResponse(
      [handler],
      new Request('http://localhost/api/user/profile/p-1/avatar', { headers: { authorization: 'x' } }),
    );
    expect(response?.status).toBe(401);
    const open = createRouter(contract, '*/api', async () => ({ subject: 'ada', roles: [] }));
    const image = await getResponse(
      [open.route('get', '/user/profile/{id}/avatar', () => ({ status: 200, bytes: buffer.subarray(2, 5), type: 'image/png' }))],
      new Request('http://localhost/api/user/profile/p-1/avatar'),
    );
    expect([image?.status, image?.headers.get('content-type'), new Uint8Array(await image!.arrayBuffer())]).toEqual([
      200,
      'image/png',
      new Uint8Array([3, 4, 5]),
    ]);
  });
});

describe('inPathOrder', () => {
  it('refuses a handler route() did not make', () => {
    expect(() => router().inPathOrder([http.get('*/api/symbols', () => undefined)])).toThrow('inPathOrder takes the handlers route() made');
  });

  it('puts a literal path before a template that also matches it, whatever order the routes were declared in', async () => {
    const { route, inPathOrder } = router();
    const handlers = inPathOrder([
      route('get', '/notifications/{id}', ({ params }) => ({ status: 404, body: error(404, 'Not Found', params.id) })),
      route('get', '/notifications/own', () => ({ status: 200, body: [] })),
    ]);
    const response = await getResponse(handlers, new Request('http://localhost/api/notifications/own'));
    expect([response?.status, await response?.json()]).toEqual([200, []]);
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
