/**
 * The Node server of `npm run serve` (and the tests): the built app, and the mock API's handlers
 * under /api/ on the same origin, with the mock's own endpoints under /__mock/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { getResponse } from 'msw';
import type { Authenticate } from '../mock-api/index.ts';
import { createContract } from '../mock-api/index.ts';
import { formatDataFile, parseDataFile } from './data-file.ts';
import { SEED, type DataSet } from '../mock-api/index.ts';
import { ConfigError, errorBody } from '../mock-api/index.ts';
import { CLIENT_HEADER, CONTROL_PREFIX, type RateLimitOptions, refuseCrossSite } from '../mock-api/index.ts';
import { createMockBackend } from '../mock-api/index.ts';
import { OIDC_PREFIX } from '../oidc/index.ts';
import type { EmbeddedProvider, IdentityProviderOptions } from '../oidc/index.ts';
import { discoveredTokenAuthenticator, tokenAuthenticator } from '../mock-api/index.ts';
import { fileStore, type FileStore } from './persist.ts';
import { hostAllowed, hostNameOf } from './hosts.ts';
import { parseScenario, type Scenario } from '../mock-api/index.ts';
import { contentSecurityPolicy, securityHeaders } from './security-headers.ts';
import { loadSpecCached } from '../openapi-kit/node.ts';
import { loadStaticFiles, serveStatic, type StaticFile } from './static-files.ts';
import type { ExchangeChecker, ExchangeReport } from './strict.ts';

export interface ServerOptions {
  port?: number;
  host?: string;
  delayMs?: number;
  /** The built app to serve; without one only the API answers. */
  distDir?: string | null;
  /**
   * Judges every API exchange against openapi.yaml (server/strict.ts) before it is answered; read
   * the tally with exchanges(). `npm run serve` turns it on with MOCK_STRICT=1.
   */
  strict?: boolean;
  /** Called with each violation strict mode finds, as it finds it. */
  onViolation?: (message: string) => void;
  /** A data file (server/data-file.ts) to start with and reset to, instead of the seed. */
  dataFile?: string | null;
  /** Keeps the data in this file: loaded at start when it exists, rewritten before every change is answered. */
  persistFile?: string | null;
  /** A scenario file (mock-api/scenario.ts): statuses, delays and faults per operationId. */
  scenarioFile?: string | null;
  /** How many exchanges GET /__mock/requests keeps. */
  journalSize?: number;
  /** The embedded OpenID Connect provider's access token lifetime, in seconds (default 300). */
  accessTokenTtl?: number;
  /** Another OpenID Connect provider whose access tokens the API accepts instead of the embedded one's. */
  issuer?: string | null;
  /** The audience the tokens of `issuer` carry; the API's URL on this server by default. */
  audience?: string | null;
  /**
   * Who the API's caller is. By default the embedded provider's access tokens are checked
   * (mock-api/jwt.ts); a test may put another check in its place.
   */
  authenticate?: Authenticate;
  /** Host names answered besides IP addresses, localhost and `host` (./hosts.ts); others get 421. */
  allowedHosts?: readonly string[];
  /** How long a client may take to send a request's headers, in ms (default 10 s): a slow client cannot hold a connection. */
  headersTimeoutMs?: number;
  /** Connections open at once at most (default 256); a connection past them is closed at once. */
  maxConnections?: number;
  /** Connections open at once from one client address at most (default 64); one past them is closed at once. */
  maxConnectionsPerClient?: number;
  /** How many push subscriptions one client (address) may store without a bearer token (mock-api/rate.ts); tests make it smaller. */
  subscriptionCreates?: RateLimitOptions;
  /** How the embedded provider slows and then refuses failed sign-ins (oidc/throttle.ts); tests make it quicker. */
  signInThrottle?: IdentityProviderOptions['signInThrottle'];
}

export interface RunningServer {
  url: string;
  server: Server;
  /** Serves another build from now on, as a deploy would. */
  deploy(distDir: string): void;
  /** While false, every connection is dropped unanswered: the network is down as far as a browser can tell. */
  setReachable(reachable: boolean): void;
  /** The check the API applies to a request's credentials: the caller's identity, or a thrown 401 answer. */
  authenticate: Authenticate;
  /** Strict mode's tally: the API exchanges judged and every violation found (nothing without strict). */
  exchanges(): ExchangeReport;
  close(): Promise<void>;
}

const API_PREFIX = '/api/';
/** The defaults of ServerOptions' limits (docs/security.md). */
const HEADERS_TIMEOUT_MS = 10_000;
const MAX_CONNECTIONS = 256;
/** A quarter of them: one client cannot take every connection (a browser opens six per host). */
const MAX_CONNECTIONS_PER_CLIENT = 64;
/** A whole request, body included, must have arrived within this; an avatar of 2 MB takes a fraction of it. */
const REQUEST_TIMEOUT_MS = 60_000;
/** Past this many bytes of a body it has refused, the server stops reading and closes the connection. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/**
 * The body, or 'too-large' past `limit`. A body refused as too large is still read to its end
 * (RFC 9112 §9.6: a server closing a connection should first read what the client sends), so
 * that the client gets the 413 instead of a broken pipe; one too large even for that is cut off.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Counted as it arrives, declared or not: Node hands over exactly the declared length before 'end'.
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      else if (size > MAX_DISCARDED_BYTES) req.socket.destroy();
    });
    req.on('end', () => resolveBody(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The hash sources of the build's inline scripts for script-src, as the build wrote them
 * (src/prerender/vite-plugin.ts); only well-formed SHA-256 sources, so the file cannot loosen the policy.
 */
function readScriptHashes(distDir: string): string[] {
  const path = resolve(distDir, '.csp-script-hashes.json');
  if (!existsSync(path)) return [];
  try {
    const sources: unknown = JSON.parse(readFileSync(path, 'utf8'))['script-src'];
    return Array.isArray(sources) ? sources.filter((s) => typeof s === 'string' && /^'sha256-[A-Za-z0-9+/]{43}='$/.test(s)) : [];
  } catch {
    console.warn(`${path} is not valid JSON: the Content-Security-Policy allows no inline script`);
    return [];
  }
}

function readUiConfig(distDir: string): Record<string, unknown> {
  const path = resolve(distDir, 'assets/ui-config.json');
  if (!existsSync(path)) return {};
  try {
    // Stryker disable next-line StringLiteral: without an encoding the file comes as a Buffer, which JSON.parse reads as the same UTF-8 text
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a JSON value that is no object (null, a number, a string, an array) spreads into the configuration as no key it reads, so letting one through changes no policy
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    console.warn(`${path} is not valid JSON: the Content-Security-Policy uses the built-in endpoints`);
    return {};
  }
}

function readConfigFile(file: string, what: string): string {
  try {
    // Stryker disable next-line StringLiteral: without an encoding the file comes as a Buffer, and both of its readers only hand it to JSON.parse, which reads it as the same UTF-8 text
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: the ${what} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const { port = 8080, host = '127.0.0.1', delayMs = 1000 } = options;
  const contract = createContract(loadSpecCached());
  const initial: DataSet = options.dataFile
    ? parseDataFile(readConfigFile(options.dataFile, 'data file'), contract, options.dataFile, SEED)
    : SEED;
  const scenario: Scenario = options.scenarioFile
    ? parseScenario(
        parseJson(readConfigFile(options.scenarioFile, 'scenario file'), options.scenarioFile),
        contract.spec,
        options.scenarioFile,
      )
    : {};
  const store: FileStore | null = options.persistFile ? fileStore(options.persistFile) : null;
  const persisted = store?.read() ?? null;
  const current = persisted === null ? initial : parseDataFile(persisted, contract, options.persistFile!, initial);

  // Made once the port is known (the issuer is the origin's); until then nothing can present a token.
  let provider: EmbeddedProvider | null = null;
  let checkToken: Authenticate | null = options.authenticate ?? null;
  const authenticate: Authenticate = (request) => {
    if (!checkToken) throw new Error('The identity provider is not ready');
    return checkToken(request);
  };

  const allowedHosts = [host, ...(options.allowedHosts ?? [])];
  const backend = await createMockBackend({
    contract,
    authenticate,
    delayMs,
    basePath: '/api',
    anyOrigin: true,
    initial,
    scenario,
    journalSize: options.journalSize ?? 100,
    trustedHosts: allowedHosts,
    ...(options.subscriptionCreates ? { subscriptionCreates: options.subscriptionCreates } : {}),
  });
  const { db, journal, handlers } = backend;
  if (current !== initial) await db.load(current);
  // The revision on the disk: after an exchange that changed the data, the file is rewritten before the answer leaves.
  let saved = db.revision;
  if (store && persisted === null) store.write(formatDataFile(db.snapshot()));
  const save = () => {
    if (!store || db.revision === saved) return;
    store.write(formatDataFile(db.snapshot()));
    saved = db.revision;
  };

  const maxBody = Math.max(
    ...contract.spec.operations.flatMap((op) => Object.values(op.body?.content ?? {}).map((m) => m.maxBodyBytes ?? 0)),
  );
  // Loaded only when asked for: it reads openapi.yaml again and compiles its own validators.
  const checker: ExchangeChecker | null = options.strict ? (await import('./strict.ts')).createExchangeChecker('/api') : null;

  let files = new Map<string, StaticFile>();
  let headers: Record<string, string> = securityHeaders(contentSecurityPolicy());
  // The site served before the current one too: a test suite that deploys a new build and then the
  // first one again compresses neither twice.
  let before = new Map<string, StaticFile>();
  const deploy = (dir: string) => {
    const next = loadStaticFiles(dir, [files, before]);
    before = files;
    files = next;
    headers = securityHeaders(contentSecurityPolicy(readUiConfig(dir), readScriptHashes(dir)));
  };
  if (options.distDir) deploy(options.distDir);

  /**
   * Another site's change refused from the request's head alone (mock-api/handlers/gate.ts), so
   * that its body is never read, nor asked for with 100 Continue; null for any other request.
   */
  function crossSiteRefusal(req: IncomingMessage, origin: string, pathname: string): Response | null {
    if (!pathname.startsWith(API_PREFIX)) return null;
    // Stryker disable next-line StringLiteral: a request the HTTP server hands over always has its method
    const method = req.method ?? 'GET';
    const operation = contract.spec.match(method, pathname.slice(API_PREFIX.length - 1));
    if (!operation) return null;
    try {
      refuseCrossSite(new Request(new URL(req.url!, origin), { method, headers: req.headers as Record<string, string> }), operation);
      return null;
    } catch (refusal) {
      if (refusal instanceof Response) return refusal;
      throw refusal;
    }
  }

  async function answerMock(req: IncomingMessage, res: ServerResponse, origin: string, pathname: string) {
    const arrived = Date.now();
    const started = performance.now();
    const api = pathname.startsWith(API_PREFIX);
    const record = (status: number) => {
      if (!api) return;
      journal.record({
        // Stryker disable next-line StringLiteral: a request the HTTP server hands over always has its method
        method: req.method ?? 'GET',
        path: req.url ?? pathname,
        status,
        time: new Date(arrived).toISOString(),
        duration: Math.round((performance.now() - started) * 10) / 10,
      });
    };
    const refused = crossSiteRefusal(req, origin, pathname);
    const body = refused || req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req, maxBody);
    // Every answer leaves through here, so strict mode judges each one before the client sees it.
    const send = async (status: number, out: Record<string, string>, payload: Buffer) => {
      if (checker && api) {
        const problems = await checker.record({
          // Stryker disable next-line StringLiteral: a request the HTTP server hands over always has its method and URL
          method: req.method ?? 'GET',
          // Stryker disable next-line StringLiteral: as above
          url: req.url ?? '/',
          requestHeaders: req.headers,
          requestBody: body === 'too-large' || refused ? null : (body ?? new Uint8Array(0)),
          status,
          responseHeaders: out,
          responseBody: payload,
        });
        for (const problem of problems) options.onViolation?.(problem);
      }
      res.writeHead(status, out);
      // Node itself leaves the body out of an answer to HEAD, keeping the Content-Length it was given.
      res.end(payload);
      record(status);
    };
    if (refused) {
      const payload = Buffer.from(await refused.arrayBuffer());
      // Asked to confirm before the body is sent (Expect: 100-continue), the client sends none:
      // the connection closes after the answer. Otherwise the body, unread, is let through and dropped.
      const asked = /100-continue/i.test(req.headers.expect ?? '');
      const out = { ...headers, 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': String(payload.length) };
      await send(refused.status, asked ? { ...out, connection: 'close' } : out, payload);
      if (!asked) void readBody(req, 0).catch(() => undefined);
      return;
    }
    if (body === 'too-large') {
      const tooLarge = Buffer.from(JSON.stringify(errorBody(413, 'The request body is too large')));
      await send(413, { ...headers, 'content-type': 'application/json', connection: 'close' }, tooLarge);
      return;
    }
    // The client's address comes from the connection, never from the request's own headers.
    const { [CLIENT_HEADER]: _claimed, ...sent } = req.headers;
    const request = new Request(new URL(req.url!, origin), {
      method: req.method,
      headers: { ...(sent as Record<string, string>), [CLIENT_HEADER]: req.socket.remoteAddress ?? '' },
      body: body && body.length > 0 ? new Uint8Array(body) : undefined,
    });
    const response = await getResponse(handlers, request);
    try {
      save();
    } catch (error) {
      // Stryker disable next-line OptionalChaining: save() only throws when there is a store
      console.error(`The data could not be written to ${store?.path}`, error);
      const failed = Buffer.from(
        JSON.stringify(errorBody(500, `The change could not be saved to ${options.persistFile}; see the mock's log`)),
      );
      await send(500, { ...headers, 'content-type': 'application/json' }, failed);
      return;
    }
    // Stryker disable next-line BlockStatement: unreachable, the handlers end with catch-alls under /api/ and /__mock/, the only paths sent here
    if (!response) {
      // Stryker disable next-line ObjectLiteral,StringLiteral: unreachable, as above
      await send(404, { ...headers, 'content-type': 'application/json' }, Buffer.from(JSON.stringify(errorBody(404, 'Not found'))));
      return;
    }
    if (response.type === 'error') {
      // A scenario's dropped connection: no answer at all.
      record(0);
      req.socket.destroy();
      return;
    }
    const out: Record<string, string> = { ...headers, 'cache-control': 'no-store' };
    response.headers.forEach((value, key) => {
      out[key] = value;
    });
    const payload = Buffer.from(await response.arrayBuffer());
    // writeHead() sends the head at once, so without a length Node falls back to chunked encoding
    // and a client cannot compute download progress. 204 and 304 must not carry one.
    if (response.status !== 204 && response.status !== 304) out['content-length'] = String(payload.length);
    await send(response.status, out, payload);
  }

  // Async so that a failure becomes the rejection the request handler answers with a 500.
  async function answerStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    serveStatic(req, res, pathname, files, headers);
  }

  let reachable = true;
  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeout),
      // How often Node looks for requests past those limits: often enough for the limit to mean what it says.
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    (req, res) => {
      if (!reachable) {
        req.socket.destroy();
        return;
      }
      // Before any route: a page of another site reaching this server under its own name (DNS rebinding) gets nothing.
      if (req.headers.host !== undefined) {
        const named = hostNameOf(req.headers.host);
        if (named === null) {
          res.writeHead(400, { ...headers, 'content-type': 'application/json' });
          res.end(JSON.stringify(errorBody(400, 'The URL is malformed')));
          return;
        }
        if (!hostAllowed(named, allowedHosts)) {
          const message = `Host '${named}' is not a name this server answers to: start it with --allowed-hosts ${named} to add it`;
          res.writeHead(421, { ...headers, 'content-type': 'application/json', 'cache-control': 'no-store', connection: 'close' });
          res.end(JSON.stringify(errorBody(421, message)));
          return;
        }
      }
      const origin = `http://${req.headers.host ?? `${host}:${port}`}`;
      const pathname = originFormPath(req.url, origin);
      if (pathname === null) {
        res.writeHead(400, { ...headers, 'content-type': 'application/json' });
        res.end(JSON.stringify(errorBody(400, 'The URL is malformed')));
        return;
      }
      // The API takes a path segment that is no valid %-encoding as written (an id that does not
      // exist, say: mock-api/handlers/index.ts); only file paths are decoded here.
      const mock = pathname.startsWith(API_PREFIX) || pathname.startsWith(`${CONTROL_PREFIX}/`);
      const oidc = provider !== null && (pathname === OIDC_PREFIX || pathname.startsWith(`${OIDC_PREFIX}/`));
      let work: Promise<void>;
      try {
        work = oidc
          ? provider!.handle(req, res, origin)
          : mock
            ? answerMock(req, res, origin, pathname)
            : answerStatic(req, res, decodeURIComponent(pathname));
      } catch {
        res.writeHead(400, { ...headers, 'content-type': 'application/json' });
        res.end(JSON.stringify(errorBody(400, 'The URL is malformed')));
        return;
      }
      work.catch((error: unknown) => {
        console.error('Server failure', error);
        // A failure after the whole answer has left (while it is being journaled, say) changes nothing
        // the client sees; a second end() would only raise an uncaught 'write after end'.
        if (res.writableEnded) return;
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify(errorBody(500, 'The server failed; see its log')));
      });
    },
  );
  // Node answers 100 Continue by itself unless told otherwise: another site's change is refused
  // without it, so that a large body is never sent for nothing.
  server.on('checkContinue', (req, res) => {
    let refused = false;
    try {
      const origin = `http://${req.headers.host ?? `${host}:${port}`}`;
      refused = crossSiteRefusal(req, origin, new URL(req.url ?? '', origin).pathname) !== null;
    } catch {
      // A URL or Host that makes no URL: the request handler answers it (400), body or not.
    }
    if (!refused) res.writeContinue();
    server.emit('request', req, res);
  });
  server.keepAliveTimeout = 5000;
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  const perClient = options.maxConnectionsPerClient ?? MAX_CONNECTIONS_PER_CLIENT;
  // Open connections per client address. A connection past the server's own limit never gets here
  // (Node closes it first), so only accepted ones are counted.
  const clients = new Map<string, number>();
  server.on('connection', (socket) => {
    const client = socket.remoteAddress ?? '';
    const open = (clients.get(client) ?? 0) + 1;
    if (open > perClient) {
      socket.destroy();
      return;
    }
    clients.set(client, open);
    socket.once('close', () => {
      const left = clients.get(client)! - 1;
      if (left === 0) clients.delete(client);
      else clients.set(client, left);
    });
  });

  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      ready();
    });
  });
  const address = server.address() as AddressInfo;
  // Loaded only now: oidc-provider warns on some Node lines as it loads, which must not come before a usage error.
  const { createEmbeddedProvider } = await import('../oidc/index.ts');
  provider = await createEmbeddedProvider(address.port, {
    // The names given one by one keep their provider; a domain's names (`.example.org`) and any
    // IP address or *.localhost share a bounded set of them (oidc/provider.ts).
    hosts: allowedHosts.filter((name) => !name.startsWith('.')).map((name) => name.toLowerCase()),
    allowHost: (name) => hostAllowed(name, allowedHosts),
    ...(options.signInThrottle ? { signInThrottle: options.signInThrottle } : {}),
    ...(options.accessTokenTtl ? { accessTokenTtl: options.accessTokenTtl } : {}),
  });
  const url = `http://${host}:${address.port}`;
  checkToken ??= options.issuer
    ? discoveredTokenAuthenticator(options.issuer, options.audience ?? `${url}/api`)
    : tokenAuthenticator(provider);
  return {
    url,
    server,
    deploy,
    authenticate,
    setReachable(value) {
      reachable = value;
      if (!value) server.closeAllConnections();
    },
    exchanges: () => checker?.report() ?? { checked: 0, violations: [] },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * The path of a request-target in origin form (`/path?query`), or null for any other form. The
 * URL's host must come from `Host` alone: `//evil.example/x`, `/\\evil.example/x` (a URL parser
 * reads the backslash as a slash) and the absolute form `http://evil.example/x` (this is no proxy)
 * would otherwise name another host, and the cross-site check would compare `Origin` with that.
 */
function originFormPath(target: string | undefined, origin: string): string | null {
  if (target === undefined || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  const url = URL.parse(target, origin);
  if (url === null || url.origin !== new URL(origin).origin) return null;
  return url.pathname;
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
