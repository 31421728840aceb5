/**
 * What route() refuses, checked by `npm run typecheck`: each call below drifts from openapi.yaml
 * in one way and must not compile. Should route() stop catching one, its `@ts-expect-error`
 * would be unused and the typecheck would fail.
 */
import type { Router } from './route.ts';

declare const route: Router['route'];
const account = { id: '1', name: 'Membership fees', currency: 'EUR', balance: 1250.5 };

// The routes as documented compile.
route('get', '/accounts/{id}', ({ params }) => ({ status: 200, body: { ...account, id: params.id } }));
route('post', '/accounts', async ({ json }) => ({ status: 201, body: { ...(await json()), id: '4' } }));
route('delete', '/accounts/{id}', () => ({ status: 204 }));

// @ts-expect-error: a path openapi.yaml does not have.
route('get', '/account/{id}', () => ({ status: 200, body: account }));
// @ts-expect-error: a method the path does not have.
route('post', '/accounts/{id}', () => ({ status: 201, body: account }));
// @ts-expect-error: a path parameter by another name than the document's.
route('get', '/accounts/{id}', ({ params }) => ({ status: 200, body: { ...account, id: params.accountId } }));
// @ts-expect-error: a status the operation does not document.
route('get', '/accounts/{id}', () => ({ status: 201, body: account }));
// @ts-expect-error: a body that breaks the documented schema (no balance).
route('get', '/accounts/{id}', () => ({ status: 200, body: { id: '1', name: 'Membership fees', currency: 'EUR' } }));
// @ts-expect-error: a body where the document has none.
route('delete', '/accounts/{id}', () => ({ status: 204, body: account }));
// @ts-expect-error: a field the request body does not have.
route('post', '/symbols', async ({ json }) => ({ status: 201, body: { id: '4', code: (await json()).ticker, entity: 'x' } }));
// @ts-expect-error: a media type the operation does not document.
route('get', '/user/profile/{id}/avatar', () => ({ status: 200, bytes: new Uint8Array(), type: 'image/gif' }));
