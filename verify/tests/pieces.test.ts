/**
 * The pieces of `npm run verify` (verify/), each on its own: the command line and its
 * exit code 2 paths, the curl lines (run through a real shell against a server that records what
 * arrives), the JUnit XML, and the judge on hand-made answers.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiSpec } from '../../openapi-kit/index.ts';
import { loadSpec } from '../../openapi-kit/node.ts';
import { makePng } from '../../openapi-kit/node.ts';
import { DEFAULT_OPERATION_TIMEOUT_S, DEFAULT_REQUEST_TIMEOUT_S, DEFAULT_RUNS, DEFAULT_TIME_LIMIT_S, parseArgs } from '../args.ts';
import { EXIT, main } from '../cli.ts';
import { headerVariable, perlBytes, shellQuote, toCurl } from '../curl.ts';
import { judge, type Expectation } from '../judge.ts';
import { junitReport, xmlEscape } from '../report/junit.ts';
import { Results } from '../results.ts';
import type { Exchange, SentRequest } from '../exchange.ts';
import { Target } from '../target.ts';

const spec = new OpenApiSpec(loadSpec(), { detailed: true });

// -------------------------------------------------------------------------------------------------
// Arguments
// -------------------------------------------------------------------------------------------------

describe('verify: the command line', () => {
  it('reads every option, in both --name value and --name=value forms', () => {
    const parsed = parseArgs([
      '--base-url',
      'http://127.0.0.1:8080/api/',
      '--spec=other.yaml',
      '--junit',
      'r.xml',
      '--json',
      'r.json',
      '--html',
      'r.html',
      '--seed',
      '-42',
      '--header',
      'Authorization: Bearer a:b',
      '--header=X-Tenant:  t1 ',
      '--other-header',
      'Authorization: Bearer other',
      '--admin-header=Authorization: Bearer admin',
      '--read-only',
      '--max-requests',
      '500',
      '--rate',
      '20',
      '--runs=7',
      '--concurrency',
      '3',
      '--request-timeout',
      '4',
      '--operation-timeout=20',
      '--time-limit',
      '90',
      '--quiet',
    ]);
    expect(parsed).toEqual({
      ok: true,
      options: {
        baseUrl: 'http://127.0.0.1:8080/api',
        spec: 'other.yaml',
        junit: 'r.xml',
        json: 'r.json',
        html: 'r.html',
        seed: -42,
        headers: [
          ['Authorization', 'Bearer a:b'],
          ['X-Tenant', 't1'],
        ],
        otherHeaders: [['Authorization', 'Bearer other']],
        adminHeaders: [['Authorization', 'Bearer admin']],
        readOnly: true,
        maxRequests: 500,
        rate: 20,
        runs: 7,
        concurrency: 3,
        requestTimeout: 4,
        operationTimeout: 20,
        timeLimit: 90,
        quiet: true,
        help: false,
      },
    });
  });

  it('defaults: openapi.yaml, the embedded mock, a random seed, the default runs', () => {
    expect(parseArgs([], () => 1234)).toEqual({
      ok: true,
      options: {
        spec: 'openapi.yaml',
        seed: 1234,
        headers: [],
        otherHeaders: [],
        adminHeaders: [],
        readOnly: false,
        runs: DEFAULT_RUNS,
        concurrency: 1,
        requestTimeout: DEFAULT_REQUEST_TIMEOUT_S,
        operationTimeout: DEFAULT_OPERATION_TIMEOUT_S,
        timeLimit: DEFAULT_TIME_LIMIT_S,
        quiet: false,
        help: false,
      },
    });
  });

  it.each([
    [['--bogus'], 'unknown option --bogus'],
    [['http://x'], "unexpected argument 'http://x'"],
    [['--base-url'], '--base-url needs a value'],
    [['--base-url', '--quiet'], '--base-url needs a value'],
    [['--base-url', 'localhost:8080'], 'must be an http or https URL'],
    [['--base-url', 'not a url'], 'is not a URL'],
    [['--base-url', 'ftp://x/api'], 'must be an http or https URL'],
    [['--base-url', 'http://u:p@x/api'], 'must not carry credentials'],
    [['--base-url', 'http://x/api?a=1'], 'must not carry a query'],
    [['--header', 'NoColon'], '--header takes "Name: value"'],
    [['--header', 'Bad Name: v'], '--header takes "Name: value"'],
    [['--other-header', 'NoColon'], '--other-header takes "Name: value"'],
    [['--admin-header', 'NoColon'], '--admin-header takes "Name: value"'],
    [['--seed', '1.5'], '--seed takes an integer'],
    [['--runs', '0'], '--runs must be at least 1'],
    [['--concurrency', '0'], '--concurrency must be at least 1'],
    [['--concurrency', 'all'], '--concurrency takes a whole number'],
    [['--runs', 'many'], '--runs takes a whole number'],
    [['--max-requests', '-3'], '--max-requests takes a whole number'],
    [['--rate', ''], '--rate takes a whole number'],
    [['--request-timeout', '0'], '--request-timeout must be at least 1'],
    [['--operation-timeout', '1.5'], '--operation-timeout takes a whole number'],
    [['--time-limit'], '--time-limit needs a value'],
    [['--quiet=yes'], '--quiet takes no value'],
    [['--junit='], '--junit needs a file name'],
  ])('refuses %j: %s', (argv, message) => {
    const parsed = parseArgs(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });
});

/** Runs the CLI in this process; what it wrote and its exit code. */
async function runMain(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t), progress: null });
  return { code, out, err };
}

describe('verify: could not run (exit 2, one line on stderr, no stack)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-args-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cases: Array<[string, () => string[], RegExp]> = [
    ['an unknown option', () => ['--nope'], /^verify: unknown option --nope \(see --help\)\n$/],
    [
      'a spec that does not exist',
      () => ['--spec', join(dir, 'missing.yaml')],
      /^verify: cannot use the spec: cannot read .*missing\.yaml: ENOENT\n$/,
    ],
    [
      'a spec that is not YAML',
      () => {
        writeFileSync(join(dir, 'broken.yaml'), 'openapi: 3.1.0\npaths: [unclosed\n');
        return ['--spec', join(dir, 'broken.yaml')];
      },
      /^verify: cannot use the spec: .*broken\.yaml is not valid YAML: .+\n$/,
    ],
    [
      'a YAML file that is no OpenAPI document',
      () => {
        writeFileSync(join(dir, 'other.yaml'), 'name: not an api\n');
        return ['--spec', join(dir, 'other.yaml')];
      },
      /^verify: cannot use the spec: .*other\.yaml is not an OpenAPI 3 document\n$/,
    ],
    [
      'an operationId used twice',
      () => {
        writeFileSync(
          join(dir, 'twice.yaml'),
          'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /x:\n    get: {operationId: a, responses: {"200": {description: ok}}}\n    put: {operationId: a, responses: {"200": {description: ok}}}\ncomponents: {schemas: {}}\n',
        );
        return ['--spec', join(dir, 'twice.yaml')];
      },
      /^verify: cannot use the spec: operationId 'a' is used twice\n$/,
    ],
  ];
  it.each(cases)('%s', async (_name, argv, stderr) => {
    const { code, out, err } = await runMain(argv());
    expect(code).toBe(EXIT.couldNotRun);
    expect(err).toMatch(stderr);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(out).toBe('');
  });

  it('a spec the request generator cannot use ends the run, not a crash: exit 2, one line', async () => {
    // A path parameter with no type: there is no way to generate an invalid value for it.
    writeFileSync(
      join(dir, 'untyped.yaml'),
      [
        'openapi: 3.1.0',
        'info: {title: t, version: "1"}',
        'paths:',
        '  /things/{id}:',
        '    get:',
        '      operationId: getThing',
        '      parameters: [{name: id, in: path, required: true, schema: {}}]',
        '      responses: {"404": {description: none}}',
        'components: {schemas: {}}',
        '',
      ].join('\n'),
    );
    const server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { code, out, err } = await runMain(['--base-url', url, '--spec', join(dir, 'untyped.yaml'), '--runs', '2', '--quiet']);
      expect(code).toBe(EXIT.couldNotRun);
      expect(err).toMatch(/^verify: internal error: No way to break the schema \{\}: give it a type\n$/);
      expect(out).toBe('');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, out } = await runMain(['--help']);
    expect(code).toBe(EXIT.conformant);
    expect(out).toMatch(/^Usage: npm run verify -- \[--base-url URL\]/);
    for (const option of [
      '--spec',
      '--junit',
      '--json',
      '--html',
      '--seed',
      '--header',
      '--read-only',
      '--max-requests',
      '--rate',
      '--runs',
      '--quiet',
    ])
      expect(out).toContain(option);
  });
});

// -------------------------------------------------------------------------------------------------
// curl lines, run through a shell
// -------------------------------------------------------------------------------------------------

interface Arrived {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('verify: curl lines', () => {
  let server: Server;
  let base = '';
  const arrived: Arrived[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        arrived.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  /** Runs a curl line in sh; what the server received. */
  async function viaShell(request: SentRequest, env: Record<string, string> = {}): Promise<Arrived> {
    arrived.length = 0;
    await new Promise<void>((done, fail) =>
      execFile('sh', ['-c', toCurl(request)], { env: { ...process.env, ...env } }, (error, _stdout, stderr) =>
        error ? fail(new Error(`${error.message}\n${stderr}`)) : done(),
      ),
    );
    expect(arrived).toHaveLength(1);
    return arrived[0]!;
  }

  it('quotes for a POSIX shell: plain, single quotes, control characters', () => {
    expect(shellQuote('http://h/api/x')).toBe('http://h/api/x');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('a\tb')).toBe("$'a\\x09b'");
    expect(shellQuote('')).toBe("''");
  });

  it('writes bytes with runs as a Perl expression', () => {
    expect(perlBytes(Uint8Array.of(0x7b, ...new Array<number>(20).fill(0x20), 0x7d))).toBe(
      'pack("H*","7b"), "\\x20" x 20, pack("H*","7d")',
    );
  });

  it('a JSON body with quotes, non-ASCII and a header arrives byte for byte', async () => {
    const text = `{"entity":"O'Brien & Sons \\"Ltd\\"","note":"שלום 😀 $HOME \`id\`"}`;
    const bytes = new TextEncoder().encode(text);
    const got = await viaShell({
      method: 'PUT',
      url: `${base}/api/symbols/1?x=a%20b`,
      headers: [['content-type', 'application/json']],
      injected: [],
      body: { kind: 'bytes', bytes, chunked: false },
    });
    expect(got.method).toBe('PUT');
    expect(got.url).toBe('/api/symbols/1?x=a%20b');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.body.toString('utf8')).toBe(text);
  });

  it('a body with NUL bytes and a 70 KB run goes through perl, chunked when it was', async () => {
    const bytes = new Uint8Array([0x7b, 0x00, 0xff, ...new Array<number>(70_000).fill(0x20), 0x7d]);
    const got = await viaShell({
      method: 'POST',
      url: `${base}/api/symbols`,
      headers: [['content-type', 'application/json']],
      injected: [],
      body: { kind: 'bytes', bytes, chunked: true },
    });
    expect(got.headers['transfer-encoding']).toBe('chunked');
    expect(new Uint8Array(got.body)).toEqual(bytes);
  });

  it('a multipart form: text fields as written (even "@x" and ";type="), a binary file with its type and name', async () => {
    const png = makePng(8);
    const got = await viaShell({
      method: 'POST',
      url: `${base}/api/user/profile`,
      headers: [],
      injected: [],
      body: {
        kind: 'form',
        chunked: false,
        parts: [
          { name: 'displayName', value: "@/etc/passwd;type=x O'Neil" },
          { name: 'interests', value: 'a,b' },
          { name: 'avatar', file: png, type: 'image/png', filename: 'a.png' },
        ],
      },
    });
    const form = await new Response(new Uint8Array(got.body), {
      headers: { 'content-type': String(got.headers['content-type']) },
    }).formData();
    expect(form.get('displayName')).toBe("@/etc/passwd;type=x O'Neil");
    expect(form.get('interests')).toBe('a,b');
    const file = form.get('avatar') as File;
    expect(file.type).toBe('image/png');
    expect(file.name).toBe('a.png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
  });

  it('a large form, sent in slices and chunked, arrives whole and with the boundary its bytes use', async () => {
    const target = new Target({ baseUrl: `${base}/api`, headers: [['X-Tenant', 't1']] });
    const big = new Uint8Array(600 * 1024).fill(7);
    for (const stream of [false, true]) {
      arrived.length = 0;
      const form = new FormData();
      form.append('displayName', 'Ada');
      form.append('avatar', new Blob([big], { type: 'image/png' }), 'big.png');
      const exchange = await target.send(null, {
        method: 'PATCH',
        url: `${base}/api/user/profile/1`,
        body: form,
        sent: { kind: 'form', parts: [{ name: 'avatar', file: big, type: 'image/png', filename: 'big.png' }], chunked: stream },
        stream,
      });
      expect(exchange.response?.status).toBe(204);
      const got = arrived[0]!;
      expect(got.headers['x-tenant']).toBe('t1');
      expect(got.headers['transfer-encoding'] === 'chunked').toBe(stream);
      const parsed = await new Response(new Uint8Array(got.body), {
        headers: { 'content-type': String(got.headers['content-type']) },
      }).formData();
      expect(parsed.get('displayName')).toBe('Ada');
      expect(new Uint8Array(await (parsed.get('avatar') as File).arrayBuffer())).toEqual(big);
    }
  });

  it('a header given with --header is read from an environment variable, never printed', async () => {
    const request: SentRequest = {
      method: 'GET',
      url: `${base}/api/accounts`,
      headers: [],
      injected: ['Authorization'],
      body: { kind: 'none' },
    };
    expect(toCurl(request)).not.toContain('secret');
    expect(toCurl(request)).toContain(`$${headerVariable('Authorization')}`);
    const got = await viaShell(request, { VERIFY_AUTHORIZATION: 'Bearer secret-token' });
    expect(got.headers.authorization).toBe('Bearer secret-token');
  });

  it("the other member's headers (--other-header) are read from $VERIFY_OTHER_<NAME>", async () => {
    const request: SentRequest = {
      method: 'GET',
      url: `${base}/api/accounts`,
      headers: [],
      injected: ['Authorization'],
      credentials: 'other',
      body: { kind: 'none' },
    };
    expect(toCurl(request)).toContain('"Authorization: $VERIFY_OTHER_AUTHORIZATION"');
    const got = await viaShell(request, { VERIFY_AUTHORIZATION: 'Bearer first', VERIFY_OTHER_AUTHORIZATION: 'Bearer second' });
    expect(got.headers.authorization).toBe('Bearer second');
  });

  it("the admin's headers (--admin-header) are read from $VERIFY_ADMIN_<NAME>", async () => {
    const request: SentRequest = {
      method: 'DELETE',
      url: `${base}/api/accounts/1`,
      headers: [],
      injected: ['Authorization'],
      credentials: 'admin',
      body: { kind: 'none' },
    };
    expect(toCurl(request)).toContain('"Authorization: $VERIFY_ADMIN_AUTHORIZATION"');
    const got = await viaShell(request, { VERIFY_AUTHORIZATION: 'Bearer member', VERIFY_ADMIN_AUTHORIZATION: 'Bearer admin' });
    expect(got.headers.authorization).toBe('Bearer admin');
  });
});

// -------------------------------------------------------------------------------------------------
// The canonical invalid requests
// -------------------------------------------------------------------------------------------------

describe('verify: the canonical invalid requests', () => {
  it('are all sent, whatever --runs says (the generated ones come on top)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-canonical-'));
    writeFileSync(
      join(dir, 'things.yaml'),
      [
        'openapi: 3.1.0',
        'info: {title: t, version: "1"}',
        'paths:',
        '  /things:',
        '    post:',
        '      operationId: createThing',
        '      requestBody:',
        '        required: true',
        '        content:',
        '          application/json:',
        '            schema:',
        '              type: object',
        '              required: [a, b, c]',
        '              additionalProperties: false',
        '              properties: {a: {type: string, maxLength: 3}, b: {type: string, maxLength: 3}, c: {type: string, maxLength: 3}}',
        '      responses: {"201": {description: created}, "400": {description: refused}, "415": {description: not JSON}}',
        'components: {schemas: {}}',
        '',
      ].join('\n'),
    );
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const type = req.headers['content-type'];
        if (req.method === 'POST') bodies.push(`${type ?? '-'} ${Buffer.concat(chunks).toString()}`);
        res.writeHead(type === undefined || type === 'application/json' ? 400 : 415).end();
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { code } = await runMain(['--base-url', url, '--spec', join(dir, 'things.yaml'), '--runs', '1', '--quiet']);
      expect(code).toBe(EXIT.notConformant); // a valid request refused with 400
      const keys = (b: string) => {
        try {
          return Object.keys(JSON.parse(b.slice(b.indexOf(' ') + 1)) as object)
            .sort()
            .join(',');
        } catch {
          return null;
        }
      };
      const json = bodies.filter((b) => b.startsWith('application/json '));
      for (const left of ['b,c', 'a,c', 'a,b']) expect(json.map(keys), `a body with only ${left}`).toContain(left);
      expect(bodies).toContain('application/json {"');
      expect(bodies.some((b) => b.startsWith('text/plain '))).toBe(true);
      expect(bodies, JSON.stringify(bodies)).toContain('- ');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// -------------------------------------------------------------------------------------------------
// Kept-alive connections
// -------------------------------------------------------------------------------------------------

describe('verify: a kept-alive connection the server closes', () => {
  /** How the server treats a request, by its order on its connection (1 = the connection's first). */
  type Treatment = (req: IncomingMessage, res: ServerResponse, nth: number) => boolean;
  let server: Server;
  let base = '';
  /** Every request that arrived: method, path and its place on its connection. */
  const seen: string[] = [];
  let treat: Treatment = () => false;

  beforeAll(async () => {
    const perSocket = new WeakMap<object, number>();
    server = createServer((req, res) => {
      const nth = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, nth);
      seen.push(`${req.method} ${req.url} #${nth}`);
      if (treat(req, res, nth)) return;
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"1"}'));
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  async function twoRequests(treatment: Treatment) {
    seen.length = 0;
    treat = treatment;
    const target = new Target({ baseUrl: `${base}/api` });
    try {
      const first = await target.send(null, { method: 'GET', url: `${base}/api/first` });
      const body = new TextEncoder().encode('{"name":"x"}');
      const second = await target.send(null, {
        method: 'POST',
        url: `${base}/api/second`,
        headers: new Headers({ 'content-type': 'application/json' }),
        body,
        sent: { kind: 'bytes', bytes: body, chunked: false },
      });
      return { first, second, resends: target.resends, sent: target.sent };
    } finally {
      target.close();
    }
  }

  it('sends a request again, once, on a new connection when the reused one is closed before any byte of an answer', async () => {
    let closed = false;
    const run = await twoRequests((req, _res, nth) => {
      // The connection's idle timeout strikes as the second request arrives: it is never read.
      if (nth < 2 || closed) return false;
      closed = true;
      req.socket.destroy();
      return true;
    });
    expect(run.first.response?.status).toBe(201);
    expect(run.second.error).toBeUndefined();
    expect(run.second.response?.status).toBe(201);
    expect(seen).toEqual(['GET /api/first #1', 'POST /api/second #2', 'POST /api/second #1']);
    expect(run.resends).toBe(1);
    expect(run.sent).toBe(2);
  });

  it('does not send again what was reset on a new connection (the server may have processed it)', async () => {
    seen.length = 0;
    treat = (req) => {
      req.socket.destroy();
      return true;
    };
    const target = new Target({ baseUrl: `${base}/api` });
    try {
      const only = await target.send(null, { method: 'DELETE', url: `${base}/api/one` });
      expect(only.response).toBeNull();
      expect(only.error).toMatch(/ECONNRESET/);
      expect(seen).toEqual(['DELETE /api/one #1']);
      expect(target.resends).toBe(0);
    } finally {
      target.close();
    }
  });

  it('does not send again what was cut off after part of its answer', async () => {
    const run = await twoRequests((req, _res, nth) => {
      if (nth < 2) return false;
      req.socket.end('HTTP/1.1 201 Created\r\ncontent-type: app');
      return true;
    });
    expect(run.second.response).toBeNull();
    expect(seen).toEqual(['GET /api/first #1', 'POST /api/second #2']);
    expect(run.resends).toBe(0);
  });
});

// -------------------------------------------------------------------------------------------------
// The judge, on hand-made answers
// -------------------------------------------------------------------------------------------------

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

// -------------------------------------------------------------------------------------------------
// JUnit XML
// -------------------------------------------------------------------------------------------------

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

describe('verify: a verdict in bounded time, whatever the document or the server', () => {
  let dir: string;
  let server: Server;
  let url: string;
  /** How long the server waits before each answer (ms), and what it answers. */
  let answerAfter = 0;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'verify-bounded-'));
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
        }, answerAfter),
      );
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** A document of one list operation, its query parameter's schema given. */
  const documentWith = (name: string, query: object) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: name, version: '1' },
        paths: {
          '/things': {
            get: {
              operationId: 'listThings',
              parameters: [{ name: 'q', in: 'query', required: true, schema: query }],
              responses: { '200': { description: 'things', content: { 'application/json': { schema: { type: 'array' } } } } },
            },
          },
        },
      }),
    );
    return file;
  };

  const runMain = async (argv: string[]) => {
    let out = '';
    const code = await main(argv, { out: (t) => (out += t), err: (t) => (out += t), progress: null });
    return { code, out };
  };

  it('a schema no generated value meets: the check is not exercised, with the reason, the pointer and the seed', async () => {
    answerAfter = 0;
    const spec = documentWith('impossible', { type: 'string', pattern: '^a$', minLength: 5 });
    const { code, out } = await runMain(['--spec', spec, '--base-url', url, '--seed', '3', '--json', join(dir, 'impossible.json')]);
    expect(code).toBe(EXIT.conformant);
    expect(out).toContain(
      "listThings [valid input]: not exercised: the generator gave up: no value for the query parameter 'q' (#/paths/~1things/get/parameters/0/schema): the string schema",
    );
    expect(out).toMatch(/listThings \[valid input\]: .* in 500 tries \(seed 3\)/);
  });

  it('a server slower than --request-timeout: each request fails as unanswered, and the run ends', async () => {
    answerAfter = 1500;
    const spec = documentWith('slow', { type: 'string', enum: ['a'] });
    const started = Date.now();
    const { code, out } = await runMain([
      '--spec',
      spec,
      '--base-url',
      url,
      '--seed',
      '3',
      '--request-timeout',
      '1',
      '--runs',
      '1',
      '--max-requests',
      '4',
    ]);
    expect(code).toBe(EXIT.notConformant);
    expect(out).toMatch(/no answer \(no answer within 1 s\)/);
    // Four requests of one second at most each, and nothing waited for past them.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('a request the server never answers is not shrunk: its check waits out one --request-timeout, not one per smaller request', async () => {
    const silent = createServer((req, res) => {
      req.resume();
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      // Silent on a query parameter it does not know (as Prism is on a malformed JSON body).
      if ([...query.keys()].some((name) => name !== 'q')) {
        unanswered++;
        return;
      }
      res.writeHead(query.get('q') === 'a' ? 200 : 400, { 'content-type': 'application/json' }).end('[]');
    });
    let unanswered = 0;
    await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready));
    try {
      const file = join(dir, 'silent.json');
      writeFileSync(
        file,
        JSON.stringify({
          openapi: '3.1.0',
          info: { title: 'silent', version: '1' },
          paths: {
            '/things': {
              get: {
                operationId: 'listThings',
                parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string', enum: ['a'] } }],
                responses: {
                  '200': { description: 'things', content: { 'application/json': { schema: { type: 'array' } } } },
                  '400': { description: 'a bad query', content: { 'application/json': {} } },
                },
              },
            },
          },
        }),
      );
      const base = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const { code, out } = await runMain(['--spec', file, '--base-url', base, '--seed', '3', '--runs', '20', '--request-timeout', '1']);
      expect(code).toBe(EXIT.notConformant);
      expect(out).toMatch(/listThings .*\[invalid input\]/);
      expect(out).toMatch(/no answer \(no answer within 1 s\)/);
      expect(unanswered).toBe(1);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((done) => silent.close(() => done()));
    }
  });

  it('--operation-timeout and --time-limit: what is left is reported as not exercised, with the budget spent', async () => {
    answerAfter = 400;
    const spec = documentWith('budget', { type: 'string', enum: ['a', 'b'] });
    const op = await runMain(['--spec', spec, '--base-url', url, '--seed', '3', '--operation-timeout', '1', '--quiet']);
    expect(op.code).not.toBe(EXIT.couldNotRun);
    expect(op.out).toMatch(/listThings's time budget \(--operation-timeout 1 s\) was spent/);
    const run = await runMain(['--spec', spec, '--base-url', url, '--seed', '3', '--time-limit', '1', '--quiet']);
    expect(run.code).not.toBe(EXIT.couldNotRun);
    expect(run.out).toMatch(/the run's time limit \(--time-limit 1 s\) was reached/);
  });
});
