/**
 * A verdict in bounded time, whatever the document or the server.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, main } from '../cli.ts';

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
