/**
 * Answers on demand: `Prefer` per request, read as Prism reads it (the same requests get the same
 * answers from both), `Prefer: delay` beyond Prism, and a scenario file per operation (statuses,
 * delays, a dropped connection, a body that is no JSON, each for its share of the requests).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server/index.ts';
import { type PrismProcess, startPrismMock } from '../testkit/index.ts';
import { signInAs } from './support/sign-in.ts';

const work = mkdtempSync(join(tmpdir(), 'circle-scenarios-'));
const scenarioFile = (scenario: unknown) => {
  const path = join(work, `scenario-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(scenario));
  return path;
};

interface Seen {
  status: number;
  media: string;
  body: unknown;
  headers: Headers;
}
async function send(url: string, init: RequestInit = {}): Promise<Seen> {
  const response = await fetch(url, init);
  const text = await response.text();
  const media = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  return { status: response.status, media, body, headers: response.headers };
}
const prefer = (value: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...init.headers, prefer: value } });

let mock: RunningServer;
let prism: PrismProcess;
beforeAll(async () => {
  [mock, prism] = await Promise.all([startServer({ port: 0, delayMs: 0, distDir: null }), startPrismMock()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([mock?.close(), prism?.stop()]);
});

/** The same request to the embedded mock (under /api) and to Prism's mock (at its root). */
const both = async (path: string, init?: RequestInit) => {
  const [ours, theirs] = await Promise.all([send(`${mock.url}/api${path}`, init), send(`${prism.url}${path}`, init)]);
  return { ours, theirs };
};

describe('Prefer, as Prism reads it', () => {
  it.each([
    ['code=404 answers the documented 404 with its first example', '/accounts/1', 'code=404', undefined],
    ['example=NAME answers the example of that name of the lowest 2xx', '/symbols', 'example=symbols', undefined],
    ['code with example answers that status with that example', '/accounts/1', 'code=400, example=mismatch', { method: 'PUT' }],
    ['a status the operation does not document is refused with 404', '/accounts', 'code=404', undefined],
    ['an example name the answer does not have is refused with 404', '/accounts', 'example=nope', undefined],
    ['a 204 answers no body', '/accounts/1', 'code=204', { method: 'DELETE' }],
  ] as const)('%s: the same status, media type and body as Prism', async (_, path, value, init) => {
    const body = init?.method === 'PUT' ? JSON.stringify({ name: 'Fees', currency: 'EUR', balance: 1 }) : undefined;
    const request = prefer(value, { ...init, ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}) });
    const { ours, theirs } = await both(path, request);
    expect({ status: ours.status, media: ours.media, body: ours.body }).toEqual({
      status: theirs.status,
      media: theirs.media,
      body: theirs.body,
    });
  });

  it('a code that is not a status is refused with 422, as Prism does', async () => {
    const { ours, theirs } = await both('/accounts', prefer('code=abc'));
    expect([ours.status, ours.media]).toEqual([theirs.status, theirs.media]);
    expect(ours.body).toMatchObject({ type: (theirs.body as { type: string }).type, status: 422 });
  });

  it('a forced 201 carries the documented Location, and changes nothing', async () => {
    const created = await send(
      `${mock.url}/api/accounts`,
      prefer('code=201', {
        method: 'POST',
        // Asked-for answers of an admin's operation are the admin's too.
        headers: { 'content-type': 'application/json', authorization: (await signInAs(mock.url, 'ada')).authorization },
        body: '{"name":"x","currency":"EUR","balance":1}',
      }),
    );
    expect(created).toMatchObject({ status: 201, body: { id: '4', name: 'Event budget', currency: 'EUR', balance: 300 } });
    expect(created.headers.get('location')).toBe('/api/symbols/4');
    expect(((await send(`${mock.url}/api/accounts`)).body as unknown[]).length).toBe(3);
  });

  it('delay=N (beyond Prism) holds the real answer N milliseconds', async () => {
    const started = performance.now();
    const slow = await send(`${mock.url}/api/symbols/1`, prefer('delay=400'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    expect(slow).toMatchObject({ status: 200, body: { id: '1', code: 'MSFT' } });
    expect((await send(`${mock.url}/api/symbols/1`, prefer('delay=soon'))).status).toBe(422);
  });
});

describe('a scenario file (--scenario)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      delayMs: 0,
      distDir: null,
      // The share test sends 200 requests at once, each on a connection of its own.
      maxConnectionsPerClient: 256,
      scenarioFile: scenarioFile({
        listAccounts: { status: 503 },
        getAccount: { status: 404 },
        listSymbols: { fault: 'drop' },
        listNotifications: { fault: 'invalid-json' },
        getSymbol: { delay: 300 },
        listSubscriptions: { status: 500, rate: 0.5 },
      }),
    });
  });
  afterAll(() => server?.close());

  it('answers a status the operation does not document with the Error body, one it documents with its example', async () => {
    expect(await send(`${server.url}/api/accounts`)).toMatchObject({
      status: 503,
      media: 'application/json',
      body: { status: 503, error: 'Service Unavailable', message: "The mock's scenario answers 503 to listAccounts" },
    });
    expect(await send(`${server.url}/api/accounts/1`)).toMatchObject({ status: 404, body: { status: 404, error: 'Not Found' } });
  });

  it('drops the connection without an answer', async () => {
    await expect(fetch(`${server.url}/api/symbols`)).rejects.toThrow(TypeError);
  });

  it('answers a 2xx whose body is no JSON', async () => {
    const response = await fetch(`${server.url}/api/notifications`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    await expect(response.json()).rejects.toThrow(SyntaxError);
  });

  it('holds an answer for its delay, and leaves the operations it does not name alone', async () => {
    const started = performance.now();
    expect((await send(`${server.url}/api/symbols/2`)).body).toMatchObject({ code: 'AAPL' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const authorization = (await signInAs(server.url, 'ada')).authorization;
    expect((await send(`${server.url}/api/symbols/2`, { method: 'PUT', headers: { authorization } })).status).toBe(415);
  });

  it('gives a rule its share of the requests: about half of 200', async () => {
    // Subscriptions are an admin's to list.
    const headers = { authorization: (await signInAs(server.url, 'ada')).authorization };
    const statuses = await Promise.all(
      Array.from({ length: 200 }, () => send(`${server.url}/api/subscription`, { headers }).then((s) => s.status)),
    );
    const failed = statuses.filter((s) => s === 500).length;
    expect(statuses.filter((s) => s !== 500 && s !== 200)).toEqual([]);
    expect(failed).toBeGreaterThan(60);
    expect(failed).toBeLessThan(140);
  });

  it('gives way to Prefer, which asks for one answer in particular', async () => {
    expect((await send(`${server.url}/api/accounts`, prefer('example=accounts'))).status).toBe(200);
  });
});
