/**
 * The command line of `npm run verify`: its options and defaults, and the exit code 2 paths (one line on stderr, no stack).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPERATION_TIMEOUT_S, DEFAULT_REQUEST_TIMEOUT_S, DEFAULT_RUNS, DEFAULT_TIME_LIMIT_S, parseArgs } from '../args.ts';
import { EXIT } from '../cli.ts';
import { runMain } from './run-main.test-support.ts';

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
      '--refused-header',
      'Authorization: Bearer expired',
      '--refused-header=Authorization: Bearer revoked',
      '--read-only',
      '--fresh-server',
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
        refusedHeaders: [
          ['Authorization', 'Bearer expired'],
          ['Authorization', 'Bearer revoked'],
        ],
        readOnly: true,
        freshServer: true,
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
        refusedHeaders: [],
        readOnly: false,
        freshServer: false,
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
    [['--refused-header', 'NoColon'], '--refused-header takes "Name: value"'],
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
