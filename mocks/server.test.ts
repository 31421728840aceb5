// @vitest-environment node
/**
 * The request pipeline of startServer: bodies too large, URLs it cannot read, requests without a
 * Host, a failure inside, the persisted file, a dropped connection, the network switched off, and
 * the build's UI configuration in the Content-Security-Policy.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from './errors.ts';
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
const post = (server: RunningServer, path: string, size: number, declared: boolean) =>
  new Promise<Sent>((done, fail) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: portOf(server),
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(declared ? { 'content-length': String(size) } : {}) },
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

  it('a request without a Host (HTTP/1.0) is answered on the address the server listens on', async () => {
    const server = await start();
    const answer = await raw(server, 'GET /api/symbols HTTP/1.0\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toHaveLength(3);
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
    const server = await start({ persistFile: path });
    expect(readFileSync(path, 'utf8')).toBe(compact);
    expect((await fetch(`${server.url}/api/accounts`)).status).toBe(200);
    expect(readFileSync(path, 'utf8')).toBe(compact);
    expect((await fetch(`${server.url}/api/accounts/a`, { method: 'DELETE' })).status).toBe(204);
    expect(JSON.parse(readFileSync(path, 'utf8')).accounts).toEqual([]);
  });

  it('answers 500 naming the file when a change cannot be saved, and logs why', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const path = join(work, 'db.json');
    const server = await start({ persistFile: path });
    // The temporary file the write goes through cannot be created.
    mkdirSync(join(work, '.db.json.tmp'));
    const answer = await fetch(`${server.url}/api/accounts/1`, { method: 'DELETE' });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await answer.json()).toEqual({
      status: 500,
      error: 'Internal Server Error',
      message: `The change could not be saved to ${path}; see the mock's log`,
    });
    expect(errors).toHaveBeenCalledWith(`The data could not be written to ${path}`, expect.objectContaining({ code: 'EISDIR' }));
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
