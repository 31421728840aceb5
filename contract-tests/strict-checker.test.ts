/**
 * Strict mode's judge (server/strict.ts), on hand-made exchanges: the answer half for every client,
 * the request half for the app's own requests (a browser's User-Agent), and for other clients only
 * a request that breaks the contract and was accepted. The e2e suite runs it on every exchange.
 */
import { describe, expect, it } from 'vitest';
import { type ApiExchange, createExchangeChecker } from '../server/index.ts';
import { makePng } from '../openapi-kit/node.ts';

const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0';
// Both signed in as an admin: the shared collections' writes are secured; what a request without
// credentials breaks has a case of its own below.
const BROWSER = { 'user-agent': USER_AGENT, authorization: 'Bearer t' };
const TEST = { 'user-agent': 'node', authorization: 'Bearer t' };
const SYMBOL = { id: '1', code: 'MSFT', entity: 'Microsoft Corporation' };
const ERROR_400 = { status: 400, error: 'Bad Request', message: 'bad' };

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function exchange(over: Partial<ApiExchange> & { method: string; url: string }): ApiExchange {
  return {
    requestHeaders: TEST,
    requestBody: new Uint8Array(),
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: json(SYMBOL),
    ...over,
  };
}

/** A multipart body as a browser sends it: the bytes and the Content-Type with their boundary. */
async function multipart(form: FormData): Promise<{ body: Uint8Array; type: string }> {
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), type: request.headers.get('content-type')! };
}

async function judged(e: ApiExchange): Promise<string[]> {
  const checker = createExchangeChecker('/api');
  const found = await checker.record(e);
  expect(checker.report().violations).toEqual(found);
  return found;
}

describe('strict mode: the answer, for every client', () => {
  it('passes a documented answer and counts it', async () => {
    const checker = createExchangeChecker('/api');
    expect(await checker.record(exchange({ method: 'GET', url: '/api/symbols/1' }))).toEqual([]);
    expect(checker.report()).toEqual({ checked: 1, violations: [] });
  });

  it('names the operation, the URL and the status, and what broke: a body against its schema', async () => {
    const [found, ...rest] = await judged(exchange({ method: 'GET', url: '/api/symbols/1', responseBody: json({ code: 'MSFT' }) }));
    expect(rest).toEqual([]);
    expect(found).toMatch(/^getSymbol \(GET \/api\/symbols\/1\) answered 200: .*required property/);
  });

  it('an undocumented status, a missing required header, an Error body of another status', async () => {
    expect(await judged(exchange({ method: 'GET', url: '/api/symbols/1', status: 418 }))).toEqual([
      expect.stringContaining('status 418 is not documented for getSymbol'),
    ]);
    const created = exchange({
      method: 'POST',
      url: '/api/symbols',
      requestHeaders: { ...TEST, 'content-type': 'application/json' },
      requestBody: json({ code: 'AMZN', entity: 'Amazon' }),
      status: 201,
      responseBody: json({ id: '4', code: 'AMZN', entity: 'Amazon' }),
    });
    expect(await judged(created)).toEqual([expect.stringContaining('the required header Location is missing')]);
    expect(await judged({ ...created, responseHeaders: { ...created.responseHeaders, location: '/api/symbols/4' } })).toEqual([]);
    expect(
      await judged(exchange({ method: 'GET', url: '/api/symbols/9', status: 404, responseBody: json({ ...ERROR_400, status: 400 }) })),
    ).toEqual([expect.stringContaining('the Error body says status 400 in a 404 answer')]);
  });

  it('a URL that is no operation: the app must not call one; a test may', async () => {
    expect(await judged(exchange({ method: 'GET', url: '/api/nothing/here', requestHeaders: BROWSER }))).toEqual([
      'GET /api/nothing/here: the app called a URL that is no operation of the contract',
    ]);
    const checker = createExchangeChecker('/api');
    expect(await checker.record(exchange({ method: 'GET', url: '/api/nothing/here' }))).toEqual([]);
    expect(checker.report().checked).toBe(0);
  });
});

describe('strict mode: the request', () => {
  const refused = { status: 400, responseBody: json(ERROR_400) };

  it("the app's request must honour the contract, whatever the answer", async () => {
    const bad = exchange({
      method: 'POST',
      url: '/api/symbols',
      requestHeaders: { ...BROWSER, 'content-type': 'application/json' },
      requestBody: new TextEncoder().encode('{"'),
      ...refused,
    });
    expect(await judged(bad)).toEqual([
      "createSymbol (POST /api/symbols) answered 400: the app's request breaks the contract: the body is not valid JSON",
    ]);
  });

  it("another client's invalid request is fine when refused, a fault when accepted", async () => {
    const bad = exchange({
      method: 'POST',
      url: '/api/symbols',
      requestHeaders: { ...TEST, 'content-type': 'application/json' },
      requestBody: json({ code: 'lower', entity: 'x' }),
    });
    expect(await judged({ ...bad, ...refused })).toEqual([]);
    expect(
      await judged({ ...bad, status: 201, responseHeaders: { 'content-type': 'application/json', location: '/api/symbols/4' } }),
    ).toEqual([expect.stringMatching(/it accepted a request that breaks the contract: body\.code must match pattern/)]);
  });

  it.each([
    [
      'a path parameter that is no valid %-encoding',
      { method: 'GET', url: '/api/symbols/%E0%A4%A' },
      "path parameter 'id' is no valid %-encoding: '%E0%A4%A'",
    ],
    ['a path parameter against its schema', { method: 'GET', url: '/api/symbols/a.b' }, "path parameter 'id' must match pattern"],
    ['a query parameter given twice', { method: 'GET', url: '/api/symbols?code=A&code=B' }, "query parameter 'code' is given 2 times"],
    ['a query parameter against its schema', { method: 'GET', url: '/api/symbols?code=abc' }, "query parameter 'code' must match pattern"],
    [
      'a body to an operation that takes none',
      { method: 'GET', url: '/api/symbols', requestBody: json({}) },
      'a body was sent to an operation that takes none',
    ],
    ['a required body left out', { method: 'POST', url: '/api/symbols' }, 'the required body is missing'],
    [
      'a media type the operation does not take',
      { method: 'POST', url: '/api/symbols', requestHeaders: { ...BROWSER, 'content-type': 'text/plain' }, requestBody: json({}) },
      "Content-Type 'text/plain' is not one of application/json",
    ],
    [
      'a body over x-max-body-bytes',
      {
        method: 'POST',
        url: '/api/symbols',
        requestHeaders: { ...BROWSER, 'content-type': 'application/json' },
        requestBody: json({ code: 'AMZN', entity: 'x'.repeat(70_000) }),
      },
      'more than 65536',
    ],
    [
      'a required header parameter left out (If-Match on an update)',
      {
        method: 'PATCH',
        url: '/api/user/profile/p-1',
        requestHeaders: { ...BROWSER, authorization: 'Bearer t', 'content-type': 'application/json' },
        requestBody: json({ displayName: 'Ada' }),
      },
      "header 'If-Match' is required",
    ],
    [
      'a secured operation called without credentials',
      {
        method: 'DELETE',
        url: '/api/user/profile/p-1',
        requestHeaders: { 'user-agent': USER_AGENT, 'if-match': '"p-1.1"' },
      },
      'the operation is secured and the request carries no Authorization',
    ],
  ] as const)('%s', async (_name, over, message) => {
    const [found] = await judged(exchange({ requestHeaders: BROWSER, ...over, ...refused, status: over.method === 'GET' ? 200 : 400 }));
    expect(found).toContain(message);
  });

  it('a multipart form: its text fields against the form schema, its files by type and size, no field twice', async () => {
    const send = async (form: FormData) => {
      const { body, type } = await multipart(form);
      return judged(
        exchange({
          method: 'POST',
          url: '/api/user/profile',
          requestHeaders: { ...BROWSER, authorization: 'Bearer t', 'content-type': type },
          requestBody: body,
          ...refused,
        }),
      );
    };
    const fields = () => {
      const form = new FormData();
      form.append('displayName', 'Ada');
      form.append('username', 'ada_l');
      form.append('email', 'ada@example.org');
      return form;
    };
    const good = fields();
    good.append('avatar', new Blob([makePng(8)], { type: 'image/png' }), 'a.png');
    expect(await send(good)).toEqual([]);

    const gif = fields();
    gif.append('avatar', new Blob([new Uint8Array(8)], { type: 'image/gif' }), 'a.gif');
    expect((await send(gif))[0]).toContain("file 'avatar' is 'image/gif', not one of image/png, image/jpeg, image/webp");

    const big = fields();
    big.append('avatar', new Blob([new Uint8Array(2 * 1024 * 1024 + 1)], { type: 'image/png' }), 'a.png');
    expect((await send(big))[0]).toContain("file 'avatar' has 2097153 bytes, more than 2097152");

    const text = fields();
    text.append('avatar', 'not a file');
    expect((await send(text))[0]).toContain("form field 'avatar' is text, not a file");

    const twice = fields();
    twice.append('username', 'other');
    expect((await send(twice))[0]).toContain("form field 'username' is given more than once");

    const missing = new FormData();
    missing.append('displayName', 'Ada');
    expect((await send(missing))[0]).toMatch(/form must have required property 'username'/);

    const unknown = fields();
    unknown.append('nickname', 'x');
    expect((await send(unknown))[0]).toContain("form has an unknown field 'nickname'");
  });

  it('a body refused unread (too large) is not judged', async () => {
    expect(
      await judged(
        exchange({
          method: 'POST',
          url: '/api/symbols',
          requestHeaders: BROWSER,
          requestBody: null,
          ...refused,
          status: 413,
          responseBody: json({ status: 413, error: 'Payload Too Large', message: 'too large' }),
        }),
      ),
    ).toEqual([]);
  });
});
