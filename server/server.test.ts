// @vitest-environment node
/**
 * The request pipeline of startServer: bodies too large, URLs it cannot read, requests without a
 * Host, a failure inside, the persisted file, a dropped connection, the network switched off, and
 * the build's UI configuration in the Content-Security-Policy.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect, Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Authenticate, ConfigError, errorBody } from '../mock-api/index.ts';
import { signInAs } from '../oidc/index.ts';
import { contentSecurityPolicy } from './security-headers.ts';
import { type RunningServer, type ServerOptions, startServer } from './server.ts';

/** The largest x-max-body-bytes of openapi.yaml (a profile with its avatar). */
const MAX_BODY = 2_162_688;
const MAX_DISCARDED = 64 * 1024 * 1024;

let work: string;
const running: RunningServer[] = [];
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'circle-server-unit-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
  vi.restoreAllMocks();
  rmSync(work, { recursive: true, force: true });
});

const start = async (options: ServerOptions = {}) => {
  const server = await startServer({ port: 0, delayMs: 0, distDir: null, ...options });
  running.push(server);
  return server;
};
const file = (name: string, content: unknown) => {
  const path = join(work, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const portOf = (server: RunningServer) => Number(new URL(server.url).port);
/** Any request is the admin's, who may write every collection: for tests of what happens to a change, not of who may make it. */
const asAdmin: Authenticate = async () => ({ subject: 'admin', scopes: [], roles: ['member', 'admin'] });
const ADMIN = { authorization: 'Bearer admin' };

/** One raw HTTP exchange on its own connection: what comes back before the server closes it. */
const raw = (server: RunningServer, text: string) =>
  new Promise<string>((done, fail) => {
    const socket = connect(portOf(server), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => done(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', fail);
    socket.end(text);
  });

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
/** POST of `size` bytes in chunks of at most 1 MiB, with or without a Content-Length. */
const post = (server: RunningServer, path: string, size: number, declared: boolean, extra: Record<string, string> = {}) =>
  new Promise<Sent>((done, fail) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: portOf(server),
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...extra, ...(declared ? { 'content-length': String(size) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', fail);
    const block = Buffer.alloc(1024 * 1024, 0x20);
    let left = size;
    const pump = () => {
      while (left > 0) {
        const part = block.subarray(0, Math.min(left, block.length));
        left -= part.length;
        if (!req.write(part)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });

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

describe('URLs', () => {
  it('an id that is no valid %-encoding reaches the API as written', async () => {
    const server = await start();
    const answer = await fetch(`${server.url}/api/accounts/%zz`);
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { message: string }).message).toBe("Record '%zz' not found in collection 'accounts'");
  });

  it('a query string stays after the path it follows', async () => {
    const server = await start();
    const deep = await fetch(`${server.url}/api/symbols/a/b?x=1`);
    expect(((await deep.json()) as { message: string }).message).toBe("No resource at 'symbols/a/b'");
    const answer = await fetch(`${server.url}/api/accounts/%zz?x=1#part`);
    expect(((await answer.json()) as { message: string }).message).toBe("Record '%zz' not found in collection 'accounts'");
  });

  it('a file path that cannot be decoded is a 400 in JSON, with the security headers', async () => {
    const server = await start();
    const answer = await fetch(`${server.url}/assets/%E0%A4%A`);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(await answer.json()).toEqual({ status: 400, error: 'Bad Request', message: 'The URL is malformed' });
  });

  it('a Host that makes no URL is a 400 in JSON', async () => {
    const server = await start();
    const answer = await raw(server, 'GET /api/symbols HTTP/1.1\r\nHost: bad host\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(answer).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(answer).toContain(JSON.stringify({ status: 400, error: 'Bad Request', message: 'The URL is malformed' }));
  });

  it('a request-target that is not a path (`//host/…`, `/\\host/…`, absolute form) is a 400 on every path, before anything runs', async () => {
    const server = await start({ authenticate: asAdmin });
    const port = portOf(server);
    await fetch(`${server.url}/api/symbols/1`, { method: 'DELETE', headers: ADMIN });
    for (const prefix of ['//evil.example', '/\\evil.example', 'http://evil.example', `http://127.0.0.1:${port}`]) {
      for (const [method, path] of [
        ['POST', '/api/subscription'],
        ['POST', '/api/commands/reset'],
        ['POST', '/__mock/reset'],
        ['GET', '/oidc/.well-known/openid-configuration'],
        ['GET', '/index.html'],
      ]) {
        const body = '{}';
        const answer = await raw(
          server,
          `${method} ${prefix}${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://evil.example\r\n` +
            `Authorization: Bearer admin\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
        expect([prefix, path, answer.split('\r\n', 1)[0]]).toEqual([prefix, path, 'HTTP/1.1 400 Bad Request']);
        expect(answer).toContain(JSON.stringify(errorBody(400, 'The URL is malformed')));
      }
    }
    // No reset went through: the deleted symbol is still gone.
    expect((await (await fetch(`${server.url}/api/symbols`)).json()) as unknown[]).toHaveLength(2);
  });

  it('a request without a Host (HTTP/1.0) is answered on the address the server listens on', async () => {
    const server = await start();
    const answer = await raw(server, 'GET /api/symbols HTTP/1.0\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toHaveLength(3);
  });
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

describe('a failure inside the server', () => {
  it('is logged and answered 500 in JSON', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = await start();
    // A method fetch's Request refuses: the API cannot even be asked.
    const answer = await raw(server, 'TRACE /api/symbols HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 500 /);
    expect(answer).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(answer).toContain(JSON.stringify({ status: 500, error: 'Internal Server Error', message: 'The server failed; see its log' }));
    expect(errors).toHaveBeenCalledWith('Server failure', expect.any(TypeError));
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

  it('refuses a scenario file that cannot be read or is no JSON, and a data file that cannot be read, naming each', async () => {
    const missing = join(work, 'missing.json');
    await expect(start({ scenarioFile: missing })).rejects.toThrow(
      new ConfigError(`${missing}: the scenario file cannot be read (ENOENT)`),
    );
    await expect(start({ dataFile: missing })).rejects.toThrow(new ConfigError(`${missing}: the data file cannot be read (ENOENT)`));
    const broken = file('broken.json', '{');
    const refusal = await start({ scenarioFile: broken }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as Error).message).toMatch(
      new RegExp(`^${broken.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON \\(.+\\)$`),
    );
  });
});

describe('--persist', () => {
  it('writes the initial data to a file that does not exist yet', async () => {
    const path = join(work, 'db.json');
    await start({ persistFile: path, dataFile: file('data.json', { symbols: [] }) });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ symbols: [], profiles: [] });
  });

  it('leaves an existing file as it is until a change, then writes the change before answering it', async () => {
    const compact = JSON.stringify({ accounts: [{ id: 'a', name: 'Kept', currency: 'EUR', balance: 1 }] });
    const path = file('db.json', compact);
    const server = await start({ persistFile: path, authenticate: asAdmin });
    expect(readFileSync(path, 'utf8')).toBe(compact);
    expect((await fetch(`${server.url}/api/accounts`)).status).toBe(200);
    expect(readFileSync(path, 'utf8')).toBe(compact);
    expect((await fetch(`${server.url}/api/accounts/a`, { method: 'DELETE', headers: ADMIN })).status).toBe(204);
    expect(JSON.parse(readFileSync(path, 'utf8')).accounts).toEqual([]);
  });

  it("keeps a member's read marks, which a restart on the file reads back", async () => {
    const path = join(work, 'db.json');
    const first = await start({ persistFile: path, authenticate: asAdmin });
    expect((await fetch(`${first.url}/api/notifications/2/read`, { method: 'PUT', headers: ADMIN })).status).toBe(200);
    expect(JSON.parse(readFileSync(path, 'utf8')).inbox.readMarks).toEqual({ admin: { '2': true } });
    const again = await start({ persistFile: path, authenticate: asAdmin });
    expect(await (await fetch(`${again.url}/api/notifications/unread-count`, { headers: ADMIN })).json()).toEqual({ unread: 1 });
  });

  it('answers 500 naming the file when a change cannot be saved, and logs why', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const path = join(work, 'db.json');
    const server = await start({ persistFile: path, authenticate: asAdmin });
    // The temporary file the write goes through cannot be created.
    mkdirSync(join(work, '.db.json.tmp'));
    const answer = await fetch(`${server.url}/api/accounts/1`, { method: 'DELETE', headers: ADMIN });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await answer.json()).toEqual({
      status: 500,
      error: 'Internal Server Error',
      message: `The change could not be saved to ${path}; see the mock's log`,
    });
    expect(errors).toHaveBeenCalledWith(
      `The data could not be written to ${path}`,
      expect.objectContaining({ code: expect.stringMatching(/EISDIR/) }),
    );
  });
});

describe('setReachable', () => {
  /** A kept-alive connection, and a way to send one request on it and read the status line. */
  const keepAlive = (server: RunningServer) => {
    const socket: Socket = connect(portOf(server), '127.0.0.1');
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    const ask = () =>
      new Promise<string>((done) => {
        socket.once('data', (chunk: Buffer) => done(chunk.toString('latin1').split('\r\n', 1)[0]!));
        socket.write('GET /api/symbols HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      });
    return { socket, closed, ask };
  };

  it('false drops the open connections and every new one; true answers again on a connection kept open', async () => {
    const server = await start();
    const first = keepAlive(server);
    expect(await first.ask()).toBe('HTTP/1.1 200 OK');
    server.setReachable(true);
    expect(await first.ask()).toBe('HTTP/1.1 200 OK');
    server.setReachable(false);
    await first.closed;
    await expect(fetch(`${server.url}/api/symbols`)).rejects.toThrow();
    server.setReachable(true);
    expect((await fetch(`${server.url}/api/symbols`)).status).toBe(200);
    first.socket.destroy();
  });
});

describe("the build's UI configuration", () => {
  const build = (config: string | null) => {
    const dir = join(work, `dist-${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    if (config !== null) writeFileSync(join(dir, 'assets/ui-config.json'), config);
    return dir;
  };
  const policyOf = async (server: RunningServer) => (await fetch(`${server.url}/api/symbols`)).headers.get('content-security-policy');

  it('adds the endpoints it names to connect-src, on start and on a deploy', async () => {
    const named = build(JSON.stringify({ apiBaseUrl: 'https://api.example.org/v1' }));
    const server = await start({ distDir: named });
    expect(await policyOf(server)).toBe(contentSecurityPolicy({ apiBaseUrl: 'https://api.example.org/v1' }));
    expect(await policyOf(server)).toContain("connect-src 'self' https://api.example.org");
    server.deploy(build(null));
    expect(await policyOf(server)).toBe(contentSecurityPolicy());
  });

  it('keeps the built-in endpoints without a configuration, and says nothing about it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const server = await start({ distDir: build(null) });
    expect(await policyOf(server)).toBe(contentSecurityPolicy());
    expect(warn).not.toHaveBeenCalled();
  });

  it('keeps the built-in endpoints for a configuration that is no JSON object, and warns about one that is no JSON', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const server = await start({ distDir: build('null') });
    expect(await policyOf(server)).toBe(contentSecurityPolicy());
    expect(warn).not.toHaveBeenCalled();
    const broken = build('{"apiBaseUrl": ');
    server.deploy(broken);
    expect(await policyOf(server)).toBe(contentSecurityPolicy());
    expect(warn).toHaveBeenCalledWith(
      `${join(broken, 'assets/ui-config.json')} is not valid JSON: the Content-Security-Policy uses the built-in endpoints`,
    );
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

describe('another identity provider', () => {
  let keyServer: Server | undefined;
  afterEach(async () => {
    await new Promise((done) => keyServer?.close(done) ?? done(undefined));
    keyServer = undefined;
  });

  it("accepts its tokens for this server's API by default", async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    let issuer = '';
    keyServer = createServer((req, res) => {
      const body = req.url === '/jwks' ? { keys: [jwk] } : { issuer, jwks_uri: `${issuer}/jwks` };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((done) => keyServer!.listen(0, '127.0.0.1', done));
    issuer = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}`;
    const server = await start({ issuer });
    const token = await new SignJWT({ iss: issuer, aud: `${server.url}/api`, sub: 'grace' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k1' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const request = new Request(`${server.url}/api/user/profile/myprofile`, { headers: { authorization: `Bearer ${token}` } });
    expect(await server.authenticate(request)).toEqual({ subject: 'grace', scopes: [], roles: [] });
  });
});

describe('the embedded provider', () => {
  afterEach(() => {
    vi.doUnmock('../oidc/index.ts');
  });
  /** Starts a server whose provider is made by `make` from the real one's factory and arguments. */
  const startWith = async (
    make: (
      real: typeof import('../oidc/index.ts').createEmbeddedProvider,
      ...args: Parameters<typeof import('../oidc/index.ts').createEmbeddedProvider>
    ) => ReturnType<typeof import('../oidc/index.ts').createEmbeddedProvider>,
  ) => {
    vi.doMock('../oidc/index.ts', async (importOriginal) => {
      const actual = await importOriginal<typeof import('../oidc/index.ts')>();
      return {
        ...actual,
        createEmbeddedProvider: (...args: Parameters<typeof actual.createEmbeddedProvider>) => make(actual.createEmbeddedProvider, ...args),
      };
    });
    return start();
  };

  it('not ready yet: a request that needs it is answered 500, and the log says why', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let early: Response | undefined;
    await startWith(async (real, port, options) => {
      early = await fetch(`http://127.0.0.1:${port}/api/user/profile/myprofile`, { headers: { authorization: 'Bearer x' } });
      return real(port, options);
    });
    expect(early?.status).toBe(500);
    expect(errors).toHaveBeenCalledWith(expect.any(String), new Error('The identity provider is not ready'));
  });

  it('not ready yet: its own paths are answered as files that do not exist', async () => {
    let early: Response | undefined;
    await startWith(async (real, port, options) => {
      early = await fetch(`http://127.0.0.1:${port}/oidc/.well-known/openid-configuration`);
      return real(port, options);
    });
    expect(early?.status).toBe(404);
    expect(await early?.json()).toEqual({
      status: 404,
      error: 'Not Found',
      message: "No file at '/oidc/.well-known/openid-configuration'",
    });
  });

  it('answers its own root path, not only the paths under it', async () => {
    const server = await start();
    const answer = await fetch(`${server.url}/oidc`);
    // The provider's own strict policy, not the app's, and its own plain-text refusal, not a file's.
    expect(answer.headers.get('content-security-policy')).toMatch(/^default-src 'none'; /);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('issues access tokens of the lifetime the server was given', async () => {
    const server = await start({ accessTokenTtl: 42 });
    expect((await signInAs(server.url, 'ada')).expiresIn).toBe(42);
  });

  it('failing after its answer has begun: the answer is ended with the error, under the status already sent', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = await startWith(async (real, port, options) => {
      const provider = await real(port, options);
      return {
        ...provider,
        issuerFor: (origin) => provider.issuerFor(origin),
        audienceFor: (origin) => provider.audienceFor(origin),
        audienceOfIssuer: (issuer) => provider.audienceOfIssuer(issuer),
        publicKeys: provider.publicKeys,
        handle: async (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('begun ');
          throw new Error('broken');
        },
      };
    });
    const answer = await fetch(`${server.url}/oidc/anything`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(
      `begun ${JSON.stringify({ status: 500, error: 'Internal Server Error', message: 'The server failed; see its log' })}`,
    );
    expect(errors).toHaveBeenCalledWith('Server failure', new Error('broken'));
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

describe('a server started on a host name', () => {
  /** Listens on 127.0.0.1 whatever host is asked for: the name need not resolve for the server to be reached under it. */
  const startOn = (host: string) => {
    const listen = NetServer.prototype.listen;
    vi.spyOn(NetServer.prototype, 'listen').mockImplementation(function (this: NetServer, ...args: unknown[]) {
      const [port, , ready] = args as [number, string, () => void];
      return Reflect.apply(listen, this, [port, '127.0.0.1', ready]) as NetServer;
    });
    return start({ host });
  };
  /** A GET on the server's port that names `host` in its Host header, as a browser reaching it by that name would. */
  const getAs = (server: RunningServer, host: string, path: string) =>
    new Promise<number>((done, fail) => {
      httpRequest({ host: '127.0.0.1', port: portOf(server), path, headers: { host: `${host}:${portOf(server)}` } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      })
        .on('error', fail)
        .end();
    });

  it("trusts that name on the mock's control endpoints and at the sign-in provider, and no other", async () => {
    const server = await startOn('circle.example');
    expect(await getAs(server, 'circle.example', '/__mock/requests')).toBe(200);
    expect(await getAs(server, 'circle.example', '/oidc/.well-known/openid-configuration')).toBe(200);
    expect(await getAs(server, 'other.example', '/__mock/requests')).toBe(421);
    expect(await getAs(server, 'other.example', '/oidc/.well-known/openid-configuration')).toBe(421);
  });
});

describe('the host names the server answers to', () => {
  /** A request naming `host` in its Host header: its status, body and two headers. */
  const as = (server: RunningServer, host: string, path: string, method = 'GET') =>
    new Promise<{ status: number; body: string; type?: string; corp?: string }>((done, fail) => {
      httpRequest({ host: '127.0.0.1', port: portOf(server), path, method, headers: { host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            ...(res.headers['content-type'] ? { type: res.headers['content-type'] } : {}),
            ...(res.headers['cross-origin-resource-policy'] ? { corp: String(res.headers['cross-origin-resource-policy']) } : {}),
          }),
        );
      })
        .on('error', fail)
        .end();
    });

  it('refuses any other name with 421 and the Error body, on every path, before anything runs (a DNS-rebinding page)', async () => {
    const server = await start();
    const port = portOf(server);
    for (const [method, path] of [
      ['GET', '/api/symbols'],
      ['POST', '/api/commands/reset'],
      ['GET', '/__mock/requests'],
      ['POST', '/__mock/reset'],
      ['GET', '/oidc/.well-known/openid-configuration'],
      ['GET', '/'],
    ]) {
      const answer = await as(server, `evil.example:${port}`, path!, method);
      expect([method, path, answer.status, answer.type, JSON.parse(answer.body)]).toEqual([
        method,
        path,
        421,
        'application/json',
        errorBody(421, "Host 'evil.example' is not a name this server answers to: start it with --allowed-hosts evil.example to add it"),
      ]);
    }
    // The refused reset changed nothing.
    expect((await (await fetch(`${server.url}/api/symbols`)).json()) as unknown[]).toHaveLength(3);
  });

  it('answers IP addresses, localhost and its names, the name it listens on and those given with --allowed-hosts', async () => {
    const server = await start({ allowedHosts: ['circle.test', '.example.org'] });
    const port = portOf(server);
    const statuses: Record<string, number> = {};
    for (const host of [
      '127.0.0.1',
      '10.1.2.3',
      '[::1]',
      'localhost',
      'app.localhost',
      'circle.test',
      'example.org',
      'api.example.org',
      'CIRCLE.TEST',
      'circle.test.evil',
      'notexample.org',
      'bad.cafe',
    ]) {
      statuses[host] = (await as(server, `${host}:${port}`, '/api/symbols/1')).status;
    }
    expect(statuses).toEqual({
      '127.0.0.1': 200,
      '10.1.2.3': 200,
      '[::1]': 200,
      localhost: 200,
      'app.localhost': 200,
      'circle.test': 200,
      'example.org': 200,
      'api.example.org': 200,
      'CIRCLE.TEST': 200,
      'circle.test.evil': 421,
      'notexample.org': 421,
      'bad.cafe': 421,
    });
    // The sign-in provider answers the names the server was given, each as its own issuer.
    expect((await as(server, `api.example.org:${port}`, '/oidc/.well-known/openid-configuration')).status).toBe(200);
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

describe('slow and many clients', () => {
  /** A connection that sends `text` and stays open: resolves with what came back once the server ends it, and when. */
  const openConnection = (server: RunningServer, text: string) => {
    const socket = connect(portOf(server), '127.0.0.1');
    const opened = Date.now();
    const chunks: Buffer[] = [];
    const ended = new Promise<{ text: string; ms: number }>((done) => {
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => done({ text: Buffer.concat(chunks).toString('latin1'), ms: Date.now() - opened }));
      socket.on('error', () => undefined);
    });
    socket.write(text);
    return { socket, ended };
  };

  it('a client that does not finish its headers in time is answered 408 and cut off', async () => {
    const server = await start({ headersTimeoutMs: 300 });
    const { ended } = openConnection(server, 'GET /api/symbols HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const { text, ms } = await ended;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(3_000);
  });

  it('by default gives a client 10 s for its headers and holds at most 256 connections', async () => {
    const server = await start();
    expect(server.server.headersTimeout).toBe(10_000);
    expect(server.server.maxConnections).toBe(256);
  });

  const REQUEST = 'GET /api/symbols HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  /** A kept-alive connection from `from`, resolved once the server has answered a request on it: it is then surely accepted and held. */
  const held = (server: RunningServer, from = '127.0.0.1') =>
    new Promise<Socket>((done, fail) => {
      const socket = connect({ port: portOf(server), host: '127.0.0.1', localAddress: from });
      socket.once('data', () => done(socket));
      socket.once('error', fail);
      socket.write(REQUEST);
    });
  /** What a new connection from `from` gets for a request before it is closed: '' when it is closed unanswered. */
  const refusedOrAnswered = (server: RunningServer, from = '127.0.0.1') =>
    new Promise<string>((done) => {
      const socket = connect({ port: portOf(server), host: '127.0.0.1', localAddress: from });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        socket.destroy();
      });
      socket.on('close', () => done(Buffer.concat(chunks).toString('latin1').split('\r\n', 1)[0]!));
      socket.on('error', () => undefined);
      socket.write(REQUEST);
    });

  it('past its connections, closes a new one at once; once one closes, it answers again', async () => {
    const server = await start({ maxConnections: 2 });
    const open = [await held(server), await held(server)];
    expect(await refusedOrAnswered(server)).toBe('');
    for (const socket of open) socket.destroy();
    await Promise.all(open.map((socket) => new Promise((closed) => (socket.closed ? closed(null) : socket.once('close', closed)))));
    // The server learns of the close a moment later: ask until it answers (each refused attempt is closed at once).
    let status = '';
    while (status === '') status = await refusedOrAnswered(server);
    expect(status).toBe('HTTP/1.1 200 OK');
  });

  it('gives one client address at most its share of the connections (64 by default); another client still gets one', async () => {
    const byDefault = await start();
    const sixtyFour = await Promise.all(Array.from({ length: 64 }, () => held(byDefault)));
    expect(await refusedOrAnswered(byDefault)).toBe('');
    for (const socket of sixtyFour) socket.destroy();
    const server = await start({ maxConnections: 10, maxConnectionsPerClient: 2 });
    const open = [await held(server), await held(server)];
    expect(await refusedOrAnswered(server)).toBe('');
    expect(await refusedOrAnswered(server, '127.0.0.2')).toBe('HTTP/1.1 200 OK');
    open[0]!.destroy();
    let status = '';
    while (status === '') status = await refusedOrAnswered(server);
    expect(status).toBe('HTTP/1.1 200 OK');
    open[1]!.destroy();
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

describe('close', () => {
  it('does not wait for a client that is still sending its request', async () => {
    const server = await start();
    running.splice(running.indexOf(server), 1);
    const socket = connect(portOf(server), '127.0.0.1');
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    const accepted = new Promise((done) => server.server.once('connection', done));
    socket.write('POST /api/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await accepted;
    await server.close();
    await closed;
  });
});

describe('an error of the server after it started', () => {
  it('is not swallowed by the listener that waited for the start', async () => {
    const server = await start();
    expect(() => server.server.emit('error', new Error('later'))).toThrow('later');
  });
});
