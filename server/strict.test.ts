// @vitest-environment node
/** Strict mode's judge on what contract-tests/strict-checker.test.ts leaves out: repeated headers and exchanges it cannot read. */
import { describe, expect, it } from 'vitest';
import { type ApiExchange, createExchangeChecker } from './strict.ts';

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' };
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

const refusedCreate = (requestHeaders: ApiExchange['requestHeaders']): ApiExchange => ({
  method: 'POST',
  url: '/api/user/profile',
  requestHeaders: { ...BROWSER, authorization: 'Bearer t', ...requestHeaders },
  requestBody: null,
  status: 400,
  responseHeaders: { 'content-type': 'application/json' },
  responseBody: json({ status: 400, error: 'Bad Request', message: 'bad' }),
});

describe('strict mode', () => {
  // Each checker compiles the document's validators at its first exchange, and this test makes two:
  // more than the default five seconds on a busy machine.
  it('judges a header sent several times as the one comma-separated value a server reads', { timeout: 30_000 }, async () => {
    const once = createExchangeChecker('/api');
    expect(await once.record(refusedCreate({ 'idempotency-key': 'k-1' }))).toEqual([]);
    const twice = createExchangeChecker('/api');
    const [found, ...rest] = await twice.record(refusedCreate({ 'idempotency-key': ['k-1', 'k-2'] }));
    expect(rest).toEqual([]);
    expect(found).toMatch(
      /^createProfile \(POST \/api\/user\/profile\) answered 400: the app's request breaks the contract: header 'Idempotency-Key' must match pattern /,
    );
  });

  it('takes a header given as undefined for no header at all', async () => {
    const deleted: ApiExchange = {
      method: 'DELETE',
      url: '/api/user/profile/p-1',
      requestHeaders: { ...BROWSER, authorization: 'Bearer t', 'if-match': undefined },
      requestBody: null,
      status: 204,
      responseHeaders: {},
      responseBody: new Uint8Array(),
    };
    const checker = createExchangeChecker('/api');
    expect(await checker.record(deleted)).toEqual([
      "deleteProfile (DELETE /api/user/profile/p-1) answered 204: the app's request breaks the contract: header 'If-Match' is required",
    ]);
    expect(await checker.record({ ...deleted, requestHeaders: { ...deleted.requestHeaders, 'if-match': '"p-1.1"' } })).toEqual([]);
  });

  it('knows the app by a User-Agent that starts with Mozilla/', async () => {
    const probe: ApiExchange = { ...refusedCreate({}), method: 'GET', url: '/api/nothing', status: 404 };
    const checker = createExchangeChecker('/api');
    expect(await checker.record({ ...probe, requestHeaders: { 'user-agent': 'probe (like Mozilla/5.0)' } })).toEqual([]);
    expect(await checker.record({ ...probe, requestHeaders: { 'user-agent': 'Mozilla/5.0' } })).toEqual([
      'GET /api/nothing: the app called a URL that is no operation of the contract',
    ]);
    // The app's call outside the contract counts as judged; the other client's probe does not.
    expect(checker.report().checked).toBe(1);
  });

  it("judges operations served at the origin's root, outside the API's base path", async () => {
    const checker = createExchangeChecker('/api');
    const found = await checker.record({ ...refusedCreate({}), method: 'GET', url: '/assets/ui-config.json', status: 418 });
    expect(found).toEqual([
      expect.stringMatching(/^getUiConfig \(GET \/assets\/ui-config\.json\) answered 418: status 418 is not documented for getUiConfig/),
    ]);
  });

  it("flags another client's invalid request only when it was accepted with a 2xx", async () => {
    const listed = (status: number): ApiExchange => ({
      method: 'GET',
      url: '/api/symbols?code=lower',
      requestHeaders: { 'user-agent': 'node' },
      requestBody: new Uint8Array(),
      status,
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: json([]),
    });
    const checker = createExchangeChecker('/api');
    expect(await checker.record(listed(200))).toEqual([
      `listSymbols (GET /api/symbols) answered 200: it accepted a request that breaks the contract: query parameter 'code' must match pattern "^[A-Z]{1,5}$"`,
    ]);
    const [redirected, ...rest] = await checker.record(listed(300));
    expect(rest).toEqual([]);
    expect(redirected).toMatch(
      /^listSymbols \(GET \/api\/symbols\) answered 300: status 300 is not documented for listSymbols \(documented: [^)]*\)$/,
    );
  });

  it('lists every problem of a request and of its answer, separated by semicolons', async () => {
    const unsigned = (requestHeaders: ApiExchange['requestHeaders']): ApiExchange => ({
      ...refusedCreate({}),
      requestHeaders: { ...requestHeaders, 'idempotency-key': ['k-1', 'k-2'] },
      status: 204,
      responseBody: json({}),
    });
    const checker = createExchangeChecker('/api');
    const answered =
      'createProfile (POST /api/user/profile) answered 204: status 204 is not documented for createProfile (documented: 201, 400, 401, 403, 409, 413, 415, 422)';
    const sent = `header 'Idempotency-Key' must match pattern "^[\\x21-\\x7E]+$"; the operation is secured and the request carries no Authorization`;
    expect(await checker.record(unsigned(BROWSER))).toEqual([`${answered}; the app's request breaks the contract: ${sent}`]);
    expect(await checker.record(unsigned({}))).toEqual([`${answered}; it accepted a request that breaks the contract: ${sent}`]);
  });

  it('takes a request without a User-Agent for another client than the app', async () => {
    const checker = createExchangeChecker('/api');
    expect(await checker.record({ ...refusedCreate({}), requestHeaders: {}, method: 'GET', url: '/api/nothing', status: 404 })).toEqual([]);
    expect(checker.report().checked).toBe(0);
  });

  it('reports a copy of what it found', async () => {
    const checker = createExchangeChecker('/api');
    await checker.record({ ...refusedCreate({}), status: 418 });
    const first = checker.report();
    first.violations.push('added by a reader');
    expect(checker.report().violations).toHaveLength(1);
  });

  it('reports an exchange it cannot read, and counts it', async () => {
    const checker = createExchangeChecker('/api');
    const broken = { ...refusedCreate({}), url: 'http://[not a host/api/user/profile' };
    const expected = 'POST http://[not a host/api/user/profile: the exchange could not be checked: TypeError: Invalid URL';
    expect(await checker.record(broken)).toEqual([expected]);
    expect(checker.report()).toEqual({ checked: 1, violations: [expected] });
  });
});
