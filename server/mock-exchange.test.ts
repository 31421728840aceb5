// @vitest-environment node
/**
 * An exchange with the mock API through the server: bodies too large or cut off, another site's
 * change refused on its head, scenarios, strict mode, the answers' headers, a failure after the
 * answer has left, and the journal.
 */
import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { errorBody } from '../mock-api/index.ts';
import { signInAs } from '../oidc/index.ts';
import { ADMIN, asAdmin, cleanAfterEachTest, file, MAX_BODY, portOf, post, raw, start } from './server.test-support.ts';
import type { RunningServer } from './server.ts';

cleanAfterEachTest();

const MAX_DISCARDED = 64 * 1024 * 1024;

describe('a request body too large', () => {
  it('is answered 413 as JSON and the connection closed, whether its length is declared or only seen', async () => {
    const server = await start();
    for (const declared of [true, false]) {
      const answer = await post(server, '/api/accounts', MAX_BODY + 1, declared);
      expect(answer.status, `declared: ${declared}`).toBe(413);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(answer.headers.connection).toBe('close');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(JSON.parse(answer.body)).toEqual({ status: 413, error: 'Payload Too Large', message: 'The request body is too large' });
    }
    const journal = (await (await fetch(`${server.url}/__mock/requests`)).json()) as { status: number }[];
    expect(journal.map((e) => e.status)).toEqual([413, 413]);
  });

  it('is not refused at exactly the largest size the contract allows, declared or only seen', async () => {
    const server = await start();
    for (const declared of [true, false]) {
      // The operation that takes the largest body; without credentials it says so, having read it.
      const answer = await post(server, '/api/user/profile', MAX_BODY, declared);
      expect(answer.status, `declared: ${declared}`).toBe(401);
    }
  });

  it('is read to its end up to 64 MiB, so the client gets the 413; past that the connection is cut', async () => {
    const server = await start();
    expect((await post(server, '/api/accounts', MAX_DISCARDED, false)).status).toBe(413);
    await expect(post(server, '/api/accounts', MAX_DISCARDED + 1024 * 1024, false)).rejects.toThrow();
  }, 30_000);
});

describe('request bodies and the journal', () => {
  it('a GET that carries a body is answered as without it', async () => {
    const server = await start();
    const answer = await raw(
      server,
      'GET /api/symbols/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"code":"MSFT"');
  });

  it('a client that leaves in the middle of its body is logged as a failure, and the server goes on', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = await start();
    const socket = connect(portOf(server), '127.0.0.1');
    // Node answers 100 Continue as it hands the request over: the server is then reading the body.
    const handedOver = new Promise((resolved) => socket.once('data', resolved));
    socket.write(
      'POST /api/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
    );
    expect(String(await handedOver)).toMatch(/^HTTP\/1\.1 100 Continue/);
    socket.write('{"id":');
    socket.destroy();
    await vi.waitFor(() => expect(errors).toHaveBeenCalledWith('Server failure', expect.objectContaining({ message: 'aborted' })));
    expect((await fetch(`${server.url}/api/symbols/1`)).status).toBe(200);
  });

  it('the journal gives each exchange its duration in milliseconds, the delay included, to a tenth', async () => {
    const server = await start({ delayMs: 120 });
    await fetch(`${server.url}/api/symbols/1`);
    const [entry] = (await (await fetch(`${server.url}/__mock/requests`)).json()) as { path: string; duration: number }[];
    expect(entry?.path).toBe('/api/symbols/1');
    expect(entry?.duration).toBeGreaterThanOrEqual(115);
    expect(entry?.duration).toBeLessThan(5000);
    expect(Math.round(entry!.duration * 10)).toBe(entry!.duration * 10);
  });
});

describe('scenarios and strict mode', () => {
  it("a scenario's dropped connection gets no answer, and the journal keeps it with status 0", async () => {
    const server = await start({ scenarioFile: file('drop.json', { listSymbols: { fault: 'drop' } }) });
    await expect(fetch(`${server.url}/api/symbols`)).rejects.toThrow();
    const journal = (await (await fetch(`${server.url}/__mock/requests`)).json()) as { method: string; path: string; status: number }[];
    expect(journal).toMatchObject([{ method: 'GET', path: '/api/symbols', status: 0 }]);
  });

  it('strict mode without onViolation still answers, and keeps the violation for exchanges()', async () => {
    const server = await start({ strict: true, scenarioFile: file('broken.json', { listSymbols: { fault: 'invalid-json' } }) });
    expect((await fetch(`${server.url}/api/symbols`)).status).toBe(200);
    const report = server.exchanges();
    expect(report.checked).toBe(1);
    expect(report.violations).toHaveLength(1);
    expect(report.violations[0]).toMatch(/^listSymbols \(GET \/api\/symbols\) answered 200: /);
  });

  it('without strict mode there is no tally', async () => {
    const server = await start();
    await fetch(`${server.url}/api/symbols`);
    expect(server.exchanges()).toEqual({ checked: 0, violations: [] });
  });
});

describe('strict mode and request bodies', () => {
  const APP = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)', ...ADMIN };

  it('judges the body the app sent', async () => {
    const violations: string[] = [];
    const server = await start({ strict: true, onViolation: (message) => violations.push(message), authenticate: asAdmin });
    const answer = await fetch(`${server.url}/api/accounts`, {
      method: 'POST',
      headers: { ...APP, 'content-type': 'application/json' },
      body: '{',
    });
    expect(answer.status).toBe(400);
    expect(violations).toEqual([expect.stringMatching(/the app's request breaks the contract: the body is not valid JSON$/)]);
  });

  it('judges a body refused as too large without it: only its answer counts', async () => {
    const violations: string[] = [];
    const server = await start({ strict: true, onViolation: (message) => violations.push(message), authenticate: asAdmin });
    expect((await post(server, '/api/accounts', MAX_BODY + 1, true, APP)).status).toBe(413);
    expect(violations.filter((v) => v.includes('request breaks'))).toEqual([]);
    expect(server.exchanges().checked).toBe(1);
  });
});

describe('a failure after the answer has left', () => {
  it('is logged, and the answer stays as it was sent', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = await start();
    // The journal's time stamp cannot be written for an arrival time that is no number; only the
    // server's own clock reading is spoilt, so nothing else (the client included) is thrown off.
    const now = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => (new Error().stack?.includes('answerMock') ? Number.NaN : now()));
    const answer = await fetch(`${server.url}/api/symbols`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toHaveLength(3);
    await vi.waitFor(() => expect(errors).toHaveBeenCalledWith('Server failure', expect.any(RangeError)));
  });
});

describe('answers of the API', () => {
  /** The head of a raw answer, its header lines by lower-case name, and what follows it. */
  const parse = (answer: string) => {
    const end = answer.indexOf('\r\n\r\n');
    const [status = '', ...lines] = answer.slice(0, end).split('\r\n');
    const fields = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    return { status, fields, rest: answer.slice(end + 4) };
  };

  it('are never to be cached, unless the endpoint says otherwise; other sites may not embed them', async () => {
    const server = await start();
    const answer = await fetch(`${server.url}/api/symbols`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it("that carry a member's data, the avatar included, are never stored by any cache", async () => {
    const server = await start();
    const authorization = (await signInAs(server.url, 'grace')).authorization;
    const form = new FormData();
    for (const [name, value] of Object.entries({ displayName: 'Grace', username: 'grace_h', email: 'grace@example.org' }))
      form.set(name, value);
    form.set('avatar', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])], { type: 'image/png' }), 'a.png');
    const created = await fetch(`${server.url}/api/user/profile`, { method: 'POST', headers: { authorization }, body: form });
    expect([created.status, created.headers.get('cache-control')]).toEqual([201, 'no-store']);
    const { avatar } = (await created.json()) as { avatar: string };
    const mine = await fetch(`${server.url}/api/user/profile/myprofile`, { headers: { authorization } });
    expect(mine.headers.get('cache-control')).toBe('no-store');
    const image = await fetch(`${server.url}${avatar}`, { headers: { authorization } });
    expect([image.status, image.headers.get('cache-control')]).toEqual([200, 'no-store']);
  });

  it('to HEAD carry their head, with the length of the body they leave out', async () => {
    const server = await start();
    const head = parse(await raw(server, 'HEAD /api/symbols/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    expect(head.status).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(head.fields.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(errorBody(405, 'Method not allowed')))));
    expect(head.rest).toBe('');
  });

  it('to a HEAD that carries a body are as without it', async () => {
    const server = await start();
    const head = parse(
      await raw(server, 'HEAD /api/symbols/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}'),
    );
    expect(head.status).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(head.fields.get('allow')).toBe('GET, PUT, DELETE');
  });

  it('with status 204 carry no Content-Length', async () => {
    const server = await start();
    const reset = parse(await raw(server, 'POST /__mock/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    expect(reset.status).toBe('HTTP/1.1 204 No Content');
    expect(reset.fields.has('content-length')).toBe(false);
    expect(reset.rest).toBe('');
  });
});

describe('another site driving the API', () => {
  it('a cross-site reset is refused (403) and every record stays; a member may not reset, nor an anonymous caller', async () => {
    const server = await start();
    const reset = (headers: Record<string, string>) => fetch(`${server.url}/api/commands/reset`, { method: 'POST', headers });
    await fetch(`${server.url}/api/symbols/1`, {
      method: 'DELETE',
      headers: { authorization: (await signInAs(server.url, 'ada')).authorization },
    });
    const crossSite = await reset({ origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
    expect([crossSite.status, ((await crossSite.json()) as { message: string }).message]).toEqual([
      403,
      'Refused: a request from another site (Sec-Fetch-Site cross-site) without a bearer token cannot change anything',
    ]);
    expect((await reset({})).status).toBe(401);
    expect((await reset({ authorization: (await signInAs(server.url, 'grace')).authorization })).status).toBe(403);
    // Still the two symbols left after ada's delete: no reset went through.
    expect((await (await fetch(`${server.url}/api/symbols`)).json()) as unknown[]).toHaveLength(2);
    expect((await reset({ authorization: (await signInAs(server.url, 'ada')).authorization })).status).toBe(204);
    expect((await (await fetch(`${server.url}/api/symbols`)).json()) as unknown[]).toHaveLength(3);
  });
});

describe("another site's change with a large body", () => {
  /** Sends the head of a 2 MB POST, and the body too unless `expect`; what comes back first. */
  const firstLine = (server: RunningServer, headers: string, expect: boolean) =>
    new Promise<string>((done, fail) => {
      const socket = connect(portOf(server), '127.0.0.1');
      socket.once('data', (chunk: Buffer) => {
        done(chunk.toString('latin1').split('\r\n', 1)[0]!);
        socket.destroy();
      });
      socket.on('error', (error) => (socket.destroyed ? undefined : fail(error)));
      socket.write(
        `POST /api/subscription HTTP/1.1\r\nHost: 127.0.0.1:${portOf(server)}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${2 * 1024 * 1024}\r\n${expect ? 'Expect: 100-continue\r\n' : ''}${headers}\r\n`,
      );
      if (!expect) socket.write(Buffer.alloc(2 * 1024 * 1024, 0x20));
    });

  it('is refused (403) on its head: asked for 100 Continue, it gets the 403 instead; its own site gets the 100', async () => {
    // The clients given 100 Continue leave without their body: the server logs each as a failure.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = await start();
    expect(await firstLine(server, 'Origin: http://evil.example\r\n', true)).toBe('HTTP/1.1 403 Forbidden');
    expect(await firstLine(server, 'Sec-Fetch-Site: cross-site\r\n', true)).toBe('HTTP/1.1 403 Forbidden');
    expect(await firstLine(server, `Origin: ${server.url}\r\n`, true)).toBe('HTTP/1.1 100 Continue');
    expect(await firstLine(server, 'Origin: http://evil.example\r\nAuthorization: Bearer abc\r\n', true)).toBe('HTTP/1.1 100 Continue');
  });

  it('is refused without its body being read, and the request list has it', async () => {
    const server = await start();
    const read = vi.spyOn(Buffer, 'concat');
    expect(await firstLine(server, 'Origin: http://evil.example\r\n', false)).toBe('HTTP/1.1 403 Forbidden');
    expect(read.mock.calls.some(([chunks]) => chunks.reduce((n, c) => n + c.length, 0) >= 1024 * 1024)).toBe(false);
    read.mockRestore();
    const entries = (await (await fetch(`${server.url}/__mock/requests`)).json()) as Array<{ path: string; status: number }>;
    expect(entries.map((e) => [e.path, e.status])).toContainEqual(['/api/subscription', 403]);
  });
});

describe('the journal', () => {
  it('lists a credential sent in the query with its value redacted', async () => {
    const server = await start();
    await fetch(`${server.url}/api/symbols?access_token=secret-token&code=MSFT`);
    await fetch(`${server.url}/api/user/profile/myprofile?code=an-authorization-code`);
    const entries = (await (await fetch(`${server.url}/__mock/requests`)).json()) as { path: string }[];
    // The symbols' own filter `code` is listed; the same name elsewhere is taken for a credential.
    expect(entries.map((e) => e.path)).toEqual([
      '/api/user/profile/myprofile?code=REDACTED',
      '/api/symbols?access_token=REDACTED&code=MSFT',
    ]);
  });

  it('keeps as many exchanges as the server was told, the latest', async () => {
    const server = await start({ journalSize: 2 });
    for (const id of [1, 2, 3]) await fetch(`${server.url}/api/symbols/${id}`);
    const journal = (await (await fetch(`${server.url}/__mock/requests`)).json()) as { path: string }[];
    expect(journal.map((e) => e.path)).toEqual(['/api/symbols/3', '/api/symbols/2']);
  });
});
