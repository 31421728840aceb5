import { beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from './client';
import { collectionsApi } from './collections';
import { ApiError } from './errors';

const ACCOUNT = { id: 'a-1', name: 'Savings', currency: 'EUR', balance: 120.5 };
const SYMBOL = { id: 's-1', code: 'EUR', entity: 'Euro area' };

/** What the API was sent, with the body read as JSON. */
interface Sent {
  method: string;
  url: string;
  body: unknown;
  signal: AbortSignal;
}

let sent: Sent[];
let answer: (request: Request) => Response;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function api() {
  return collectionsApi(
    createApiClient({
      baseUrl: 'https://api.example/',
      pageOrigin: () => null,
      log: () => undefined,
      fetch: async (request) => {
        const text = await request.clone().text();
        sent.push({ method: request.method, url: request.url, body: text ? JSON.parse(text) : null, signal: request.signal });
        return answer(request);
      },
    }),
  );
}

beforeEach(() => {
  sent = [];
  answer = () => json(ACCOUNT);
});

describe('the collections', () => {
  it('lists a collection with its filters, cancellable', async () => {
    answer = () => json([ACCOUNT]);
    const controller = new AbortController();
    expect(await api().list('accounts', { currency: 'EUR' }, controller.signal)).toEqual([ACCOUNT]);
    expect(sent.map(({ method, url }) => [method, url])).toEqual([['GET', 'https://api.example/accounts?currency=EUR']]);
    controller.abort();
    expect(sent[0]?.signal.aborted).toBe(true);
  });

  it('reads one record by its id, cancellable', async () => {
    answer = () => json(SYMBOL);
    const controller = new AbortController();
    expect(await api().read('symbols', 's 1', controller.signal)).toEqual(SYMBOL);
    expect(sent.map(({ method, url }) => [method, url])).toEqual([['GET', 'https://api.example/symbols/s%201']]);
    controller.abort();
    expect(sent[0]?.signal.aborted).toBe(true);
  });

  it('creates a record with the body given', async () => {
    const input = { name: 'Savings', currency: 'EUR', balance: 120.5 };
    expect(await api().create('accounts', input)).toEqual(ACCOUNT);
    expect(sent).toMatchObject([{ method: 'POST', url: 'https://api.example/accounts', body: input }]);
  });

  it('replaces a record by its id with the body given', async () => {
    expect(await api().replace('accounts', 'a-1', ACCOUNT)).toEqual(ACCOUNT);
    expect(sent).toMatchObject([{ method: 'PUT', url: 'https://api.example/accounts/a-1', body: ACCOUNT }]);
  });

  it('removes a record by its id', async () => {
    answer = () => new Response(null, { status: 204 });
    await expect(api().remove('notifications', 'n-1')).resolves.toBeUndefined();
    expect(sent).toMatchObject([{ method: 'DELETE', url: 'https://api.example/notifications/n-1', body: null }]);
  });

  it('throws what the server refused with, and a body it cannot read as a 502', async () => {
    answer = () => json({ status: 404, error: 'Not Found', message: 'No such account' }, 404);
    await expect(api().remove('accounts', 'gone')).rejects.toMatchObject({ status: 404, message: 'No such account' });

    answer = () => json({ id: 'a-1' });
    const failure = await api()
      .read('accounts', 'a-1')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 502, message: 'The server sent a accounts record this app cannot read' });

    answer = () => json(ACCOUNT);
    await expect(api().list('accounts')).rejects.toMatchObject({
      status: 502,
      message: 'The server sent a accounts list this app cannot read',
    });
  });
});
