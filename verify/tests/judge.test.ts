/**
 * verify's judge, on hand-made answers, and the JUnit XML report of its verdicts.
 */
import { describe, expect, it } from 'vitest';
import { OpenApiSpec } from '../../openapi-kit/index.ts';
import { loadSpec } from '../../openapi-kit/node.ts';
import { challengeProblem, judge, type Expectation } from '../judge.ts';
import type { Exchange } from '../exchange.ts';
import { junitReport, xmlEscape } from '../report/junit.ts';
import { Results } from '../results.ts';
import { Window } from 'happy-dom';

const spec = new OpenApiSpec(loadSpec(), { detailed: true });

/** A notification's read says the language it answers in (openapi.yaml requires Content-Language and Vary). */
const ENGLISH = { 'content-language': 'en', vary: 'Accept-Language' };

function exchange(opId: string, status: number, body: unknown, headers: Record<string, string> = {}): Exchange {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const h = new Headers(headers);
  if (text !== '' && !h.has('content-type')) h.set('content-type', 'application/json');
  return {
    op: spec.byId(opId),
    request: { method: spec.byId(opId).method, url: 'http://x/api', headers: [], injected: [], body: { kind: 'none' } },
    response: { status, headers: h, body: new TextEncoder().encode(text) },
    ms: 1,
  };
}

const judged = (opId: string, e: Exchange, expectation: Expectation = { kind: 'unspecified' }) =>
  judge(spec, spec.byId(opId), e, expectation);
const ACCOUNT = { id: '1', name: 'Fees', currency: 'EUR', balance: 12.5 };

describe('verify: the judge', () => {
  it('passes a documented answer', () => {
    expect(judged('getAccount', exchange('getAccount', 200, ACCOUNT))).toEqual([]);
    expect(judged('deleteAccount', exchange('deleteAccount', 204, undefined))).toEqual([]);
    expect(
      judged('createSymbol', exchange('createSymbol', 201, { id: '4', code: 'AMZN', entity: 'A' }, { location: '/api/symbols/4' })),
    ).toEqual([]);
  });

  it('names the instancePath and the schemaPath in the document of a body that breaks its schema', () => {
    const { id: _id, ...withoutId } = ACCOUNT;
    const [finding] = judged('getAccount', exchange('getAccount', 200, withoutId));
    expect(finding?.violations).toContainEqual(
      expect.objectContaining({ kind: 'body', instancePath: '', schemaPath: '#/components/schemas/Account/allOf/1/required' }),
    );
    const [typed] = judged('listAccounts', exchange('listAccounts', 200, [{ ...ACCOUNT, balance: '12.5' }]));
    expect(typed?.violations).toContainEqual(
      expect.objectContaining({ instancePath: '/0/balance', schemaPath: '#/components/schemas/AccountInput/properties/balance/type' }),
    );
  });

  it('refuses an undocumented field of a record, and a list over its maxItems', () => {
    const notification = { id: '1', title: 'T', body: '', level: 'info', read: false, createdAt: '2026-11-20T10:00:00Z' };
    const [extra] = judged('getNotification', exchange('getNotification', 200, { ...notification, deletedAt: null }, ENGLISH));
    expect(extra?.violations[0]?.schemaPath).toMatch(/^#\/components\/schemas\/Notification(Input)?\/(additional|unevaluated)Properties$/);
    expect(extra?.violations[0]?.message).toContain("'deletedAt'");
    const symbol = { id: '1', code: 'A', entity: 'E' };
    const [many] = judged('listSymbols', exchange('listSymbols', 200, [symbol, symbol, symbol, symbol]));
    expect(many?.violations[0]).toMatchObject({ instancePath: '', schemaPath: expect.stringMatching(/\/maxItems$/) });
  });

  it('checks formats (date-time)', () => {
    const notification = { id: '1', title: 'T', body: '', level: 'info', read: false, createdAt: 'Mon Nov 23 2026 10:30:00 GMT+0000' };
    const [finding] = judged('getNotification', exchange('getNotification', 200, notification, ENGLISH));
    expect(finding?.violations[0]).toMatchObject({ instancePath: '/createdAt', schemaPath: expect.stringMatching(/\/format$/) });
  });

  it('refuses an undocumented status, an undocumented Content-Type, a body where none is documented', () => {
    expect(judged('createSubscription', exchange('createSubscription', 202, {}))[0]?.violations[0]).toMatchObject({ kind: 'status' });
    expect(
      judged('getSymbol', exchange('getSymbol', 200, { id: '1', code: 'A', entity: 'E' }, { 'content-type': 'text/plain' }))[0]
        ?.violations[0],
    ).toMatchObject({
      kind: 'content-type',
    });
    expect(judged('deleteAccount', exchange('deleteAccount', 204, { deleted: true }))[0]?.violations[0]).toMatchObject({ kind: 'body' });
    expect(judged('deleteAccount', exchange('deleteAccount', 200, { deleted: true }))[0]?.violations[0]).toMatchObject({ kind: 'status' });
  });

  it('requires the headers the document marks required, and checks their schema', () => {
    const created = { id: '4', code: 'AMZN', entity: 'A' };
    expect(judged('createSymbol', exchange('createSymbol', 201, created))[0]?.violations[0]).toMatchObject({ kind: 'header' });
    const patch = { status: 405, error: 'Method Not Allowed', message: 'Method not allowed' };
    expect(judged('patchSymbol', exchange('patchSymbol', 405, patch))[0]?.violations[0]?.message).toContain('Allow');
    expect(judged('patchSymbol', exchange('patchSymbol', 405, patch, { allow: 'get,put' }))[0]?.violations[0]).toMatchObject({
      kind: 'header',
      schemaPath: expect.stringMatching(/\/pattern$/),
    });
    expect(judged('patchSymbol', exchange('patchSymbol', 405, patch, { allow: 'GET, PUT, DELETE' }))).toEqual([]);
  });

  it("holds a 401's Bearer challenge to RFC 6750's syntax: error, error_description and scope are never empty", () => {
    expect(challengeProblem('Bearer realm="circle"')).toBeNull();
    expect(challengeProblem('Bearer realm="circle", error="invalid_token", error_description="The access token has expired"')).toBeNull();
    expect(challengeProblem('Bearer realm="circle", error=invalid_request')).toBeNull();
    expect(challengeProblem('Bearer realm="circle", error="", error_description="x"')).toBe(
      `the 401's WWW-Authenticate gives error="": RFC 6750 §3 wants one or more printable characters, without " or \\`,
    );
    expect(challengeProblem('Bearer error="invalid_token", error_description=""')).toContain('error_description=""');
    expect(challengeProblem('Bearer error="invalid_token", error_description="say \\"no\\""')).toContain(
      'error_description="say \\"no\\""',
    );
    // Another scheme's challenge is not RFC 6750's to judge.
    expect(challengeProblem('Basic realm="x", error=""')).toBeNull();
    // A refused bearer token is told what is wrong with it; a request without credentials is told nothing.
    expect(challengeProblem('Bearer realm="circle", error="invalid_token"', 'bearer')).toBeNull();
    expect(challengeProblem('Bearer realm="circle"', 'bearer')).toBe(
      'the 401 to a bearer token names no error in its challenge ("Bearer realm=\\"circle\\""): RFC 6750 §3.1 asks for one, e.g. error="invalid_token"',
    );
    expect(challengeProblem('Bearer realm="circle"', 'none')).toBeNull();
    expect(challengeProblem('Bearer realm="circle", error="invalid_request"', 'none')).toContain('without credentials names an error');
    // Something else than a bearer credential (another scheme, a token misplaced): either way.
    expect(challengeProblem('Bearer realm="circle"', 'other')).toBeNull();
    expect(challengeProblem('Bearer realm="circle", error="invalid_request"', 'other')).toBeNull();
    const refused = { status: 401, error: 'Unauthorized', message: 'The access token has expired: renew it' };
    const titles = judged(
      'getMyProfile',
      exchange('getMyProfile', 401, refused, { 'www-authenticate': 'Bearer realm="circle", error="", error_description="expired"' }),
    ).map((f) => f.title);
    expect(titles).toEqual([expect.stringContaining('error=""')]);
  });

  it("holds a 405's Allow to the methods the document serves on the path (RFC 9110 10.2.1)", () => {
    const patch = { status: 405, error: 'Method Not Allowed', message: 'Method not allowed' };
    const titles = (allow: string) => judged('patchSymbol', exchange('patchSymbol', 405, patch, { allow })).map((f) => f.title);
    // Run together, the methods make a word of the header's pattern that names no method.
    expect(titles('GETPUTDELETE')).toEqual([
      `the 405's Allow ("GETPUTDELETE") names "GETPUTDELETE", which the document does not serve on /symbols/{id} (it serves GET, PUT, DELETE)`,
    ]);
    expect(titles('GET, POST')).toEqual([expect.stringContaining('names "POST", which the document does not serve')]);
    // The refused method itself (documented on the path, but only as 405).
    expect(titles('GET, PATCH')).toEqual([`the 405's Allow ("GET, PATCH") names PATCH, the method it refuses`]);
    // HEAD beside GET, and OPTIONS, need no operation of their own; a subset is fine.
    expect(titles('GET, HEAD, OPTIONS')).toEqual([]);
    expect(titles('GET')).toEqual([]);
  });

  it('judges the Error body by the document: its status, the reason phrase its examples give, a message', () => {
    const body = (status: number, error: string, message = 'm') => ({ status, error, message });
    expect(judged('getSymbol', exchange('getSymbol', 404, body(404, 'Not Found')))).toEqual([]);
    expect(judged('createSymbol', exchange('createSymbol', 413, body(413, 'Payload Too Large')))).toEqual([]);
    expect(judged('createSymbol', exchange('createSymbol', 413, body(413, 'Content Too Large')))[0]?.violations[0]).toMatchObject({
      kind: 'error-body',
    });
    expect(judged('getSymbol', exchange('getSymbol', 404, body(400, 'Not Found')))[0]?.violations[0]).toMatchObject({ kind: 'error-body' });
    expect(judged('getSymbol', exchange('getSymbol', 404, body(404, 'Not Found', ' ')))[0]?.violations[0]).toMatchObject({
      kind: 'error-body',
    });
    const [framework] = judged('getSubscription', exchange('getSubscription', 404, { statusCode: 404, error: 'Not Found', message: 'm' }));
    expect(framework?.violations.map((v) => v.message).join(' ')).toMatch(/statusCode|status/);
  });

  it('holds a valid request to a success or a 4xx valid input can get', () => {
    const bad = { status: 400, error: 'Bad Request', message: 'no' };
    expect(judged('createSymbol', exchange('createSymbol', 400, bad), { kind: 'valid' })[0]?.title).toMatch(
      /valid request was refused with 400: no/,
    );
    const full = { status: 422, error: 'Unprocessable Entity', message: 'full' };
    expect(judged('createSymbol', exchange('createSymbol', 422, full), { kind: 'valid' })).toEqual([]);
  });

  it('holds an invalid request to a documented 4xx, the one the document gives for its problem', () => {
    const created = exchange(
      'createNotification',
      201,
      { id: '9', title: 'T', body: '', level: 'info', read: false, createdAt: '2026-11-20T10:00:00Z' },
      { location: '/x' },
    );
    expect(judged('createNotification', created, { kind: 'invalid', why: ["missing required 'title'"] })[0]?.title).toMatch(
      /invalid request was accepted \(201\)/,
    );
    const bad = exchange('createSymbol', 400, { status: 400, error: 'Bad Request', message: 'big' });
    expect(judged('createSymbol', bad, { kind: 'invalid', why: ['body above 64 KB'], statuses: [413] })[0]?.title).toMatch(
      /got 400; the document gives 413/,
    );
    const notAllowed = exchange('patchSymbol', 405, { status: 405, error: 'Method Not Allowed', message: 'no' }, { allow: 'GET' });
    expect(judged('patchSymbol', notAllowed, { kind: 'invalid', why: ['bad id'], statuses: [400] })).toEqual([]);
    const crash = exchange('createSymbol', 500, { status: 500, error: 'Internal Server Error', message: 'x' });
    expect(judged('createSymbol', crash, { kind: 'invalid', why: ['x'] })[0]?.violations[0]).toMatchObject({ kind: 'status' });
  });

  it('reports an exchange that got no answer', () => {
    const e = { ...exchange('listSymbols', 200, []), response: null, error: 'ECONNRESET' };
    expect(judged('listSymbols', e)[0]?.title).toBe('no answer (ECONNRESET)');
  });
});

describe('verify: JUnit XML', () => {
  it('escapes text for XML, and replaces what XML 1.0 cannot carry', () => {
    expect(xmlEscape(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
    expect(xmlEscape('a\u0000b\u0008c\ud800')).toBe('a\ufffdb\ufffdc\ufffd');
    expect(xmlEscape('tab\tnewline\n😀')).toBe('tab\tnewline\n😀');
  });

  it('is well-formed, with one testcase per operation and check, and its failures', () => {
    const results = new Results(spec);
    const op = spec.byId('getAccount');
    const hostile = exchange('getAccount', 200, { id: 'x]]></failure><x a="', name: '\u0000&<' });
    results.count(hostile, 'valid input');
    results.fail(op, 'valid input', hostile, { title: 'a title with <tags> & "quotes" \u0001 ]]>', violations: [] });
    results.skip(spec.byId('createAccount'), 'limits', 'no <limit> & such');
    const run = results.finish(
      {
        baseUrl: 'http://h/api',
        embedded: false,
        spec: 'openapi.yaml',
        seed: 1,
        runs: 1,
        readOnly: false,
        startedAt: new Date(0).toISOString(),
        ms: 10,
      },
      1,
    );
    const xml = junitReport(run);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no character XML 1.0 forbids may appear.
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(xml).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/);
    const doc = new new Window().DOMParser().parseFromString(xml, 'application/xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const cases = [...doc.getElementsByTagName('testcase')];
    // Each operation's five checks, and each link (never followed here: skipped, with why).
    expect(cases).toHaveLength(spec.operations.length * 6 + spec.links.length);
    expect(
      cases
        .filter((c) => c.getAttribute('classname')?.startsWith('verify.links.'))
        .every((c) => c.getElementsByTagName('skipped').length === 1),
    ).toBe(true);
    const failing = cases.filter((c) => c.getElementsByTagName('failure').length > 0);
    expect(failing.map((c) => c.getAttribute('name'))).toEqual(['getAccount valid input']);
    expect(failing[0]!.getElementsByTagName('failure')[0]!.getAttribute('message')).toBe('a title with <tags> & "quotes" \ufffd ]]>');
    const suite = doc.getElementsByTagName('testsuite')[0]!;
    expect(suite.getAttribute('failures')).toBe('1');
    expect(Number(suite.getAttribute('tests'))).toBe(cases.length);
    const skipped = cases.filter((c) => c.getElementsByTagName('skipped').length > 0);
    expect(Number(suite.getAttribute('skipped'))).toBe(skipped.length);
    expect(
      skipped
        .find((c) => c.getAttribute('name') === 'createAccount limits')
        ?.getElementsByTagName('skipped')[0]
        ?.getAttribute('message'),
    ).toBe('no <limit> & such');
  });
});
