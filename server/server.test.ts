// @vitest-environment node
/**
 * The server as a whole: the URLs it reads, the names it answers to, a failure inside, the network
 * switched off, the identity provider it embeds or another it trusts, and its start and close.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect, Server as NetServer, type Socket } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBody } from '../mock-api/index.ts';
import { signInAs } from '../oidc/index.ts';
import { ADMIN, asAdmin, cleanAfterEachTest, portOf, raw, running, start } from './server.test-support.ts';
import type { RunningServer } from './server.ts';

cleanAfterEachTest();

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
    expect(await server.authenticate(request)).toEqual({ subject: 'grace', roles: [] });
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
