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
  it('judges a header sent several times as the one comma-separated value a server reads', async () => {
    const once = createExchangeChecker('/api');
    expect(await once.record(refusedCreate({ 'idempotency-key': 'k-1' }))).toEqual([]);
    const twice = createExchangeChecker('/api');
    const [found, ...rest] = await twice.record(refusedCreate({ 'idempotency-key': ['k-1', 'k-2'] }));
    expect(rest).toEqual([]);
    expect(found).toMatch(
      /^createProfile \(POST \/api\/user\/profile\) answered 400: the app's request breaks the contract: header 'Idempotency-Key' must match pattern /,
    );
  });

  it('reports an exchange it cannot read, and counts it', async () => {
    const checker = createExchangeChecker('/api');
    const broken = { ...refusedCreate({}), url: 'http://[not a host/api/user/profile' };
    const expected = 'POST http://[not a host/api/user/profile: the exchange could not be checked: TypeError: Invalid URL';
    expect(await checker.record(broken)).toEqual([expected]);
    expect(checker.report()).toEqual({ checked: 1, violations: [expected] });
  });
});
