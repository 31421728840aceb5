/**
 * The Node server of `npm run serve` (and the tests): the built app (./site.ts), and the mock API's
 * handlers under /api/ on the same origin, with the mock's own endpoints under /__mock/
 * (./mock-exchange.ts), and the identity provider under /oidc. Here: what it starts with, the
 * names it answers to, the request's target, the limits of its connections, and its start and end.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CONTROL_PREFIX,
  createContract,
  createMockBackend,
  discoveredTokenAuthenticator,
  errorBody,
  tokenAuthenticator,
  type Authenticate,
  type RateLimitOptions,
} from '../mock-api/index.ts';
import { OIDC_PREFIX, type EmbeddedProvider, type IdentityProviderOptions } from '../oidc/index.ts';
import { loadSpecCached } from '../openapi-kit/node.ts';
import { limitConnectionsPerClient } from './connections.ts';
import { formatDataFile } from './data-file.ts';
import { hostAllowed, hostNameOf } from './hosts.ts';
import { API_PREFIX, createMockExchange } from './mock-exchange.ts';
import { createSite } from './site.ts';
import { readStartData } from './start-data.ts';
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
  /** The provider under /oidc (whether or not the API takes its tokens: see `issuer`). */
  identityProvider: EmbeddedProvider;
  /** Strict mode's tally: the API exchanges judged and every violation found (nothing without strict). */
  exchanges(): ExchangeReport;
  close(): Promise<void>;
}

/** The defaults of ServerOptions' limits (docs/security.md). */
const HEADERS_TIMEOUT_MS = 10_000;
const MAX_CONNECTIONS = 256;
/** A quarter of them: one client cannot take every connection (a browser opens six per host). */
const MAX_CONNECTIONS_PER_CLIENT = 64;
/** A whole request, body included, must have arrived within this; an avatar of 2 MB takes a fraction of it. */
const REQUEST_TIMEOUT_MS = 60_000;

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const { port = 8080, host = '127.0.0.1', delayMs = 1000 } = options;
  const contract = createContract(loadSpecCached());
  const { initial, scenario, store, persisted, current } = readStartData(options, contract);

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
  const { db } = backend;
  if (current !== initial) await db.load(current);
  // The revision on the disk: after an exchange that changed the data, the file is rewritten before the answer leaves.
  let saved = db.revision;
  if (store && persisted === null) store.write(formatDataFile(db.snapshot()));
  const save = () => {
    if (!store || db.revision === saved) return;
    store.write(formatDataFile(db.snapshot()));
    saved = db.revision;
  };

  // Loaded only when asked for: it reads openapi.yaml again and compiles its own validators.
  const checker: ExchangeChecker | null = options.strict ? (await import('./strict.ts')).createExchangeChecker('/api') : null;

  const site = createSite();
  if (options.distDir) site.deploy(options.distDir);
  const mockApi = createMockExchange({
    contract,
    backend,
    checker,
    onViolation: options.onViolation,
    site,
    save,
    store,
    persistFile: options.persistFile,
  });

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
          res.writeHead(400, { ...site.headers, 'content-type': 'application/json' });
          res.end(JSON.stringify(errorBody(400, 'The URL is malformed')));
          return;
        }
        if (!hostAllowed(named, allowedHosts)) {
          const message = `Host '${named}' is not a name this server answers to: start it with --allowed-hosts ${named} to add it`;
          res.writeHead(421, { ...site.headers, 'content-type': 'application/json', 'cache-control': 'no-store', connection: 'close' });
          res.end(JSON.stringify(errorBody(421, message)));
          return;
        }
      }
      const origin = `http://${req.headers.host ?? `${host}:${port}`}`;
      const pathname = originFormPath(req.url, origin);
      if (pathname === null) {
        res.writeHead(400, { ...site.headers, 'content-type': 'application/json' });
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
            ? mockApi.answerMock(req, res, origin, pathname)
            : site.answer(req, res, decodeURIComponent(pathname));
      } catch {
        res.writeHead(400, { ...site.headers, 'content-type': 'application/json' });
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
      refused = mockApi.crossSiteRefusal(req, origin, new URL(req.url ?? '', origin).pathname) !== null;
    } catch {
      // A URL or Host that makes no URL: the request handler answers it (400), body or not.
    }
    if (!refused) res.writeContinue();
    server.emit('request', req, res);
  });
  server.keepAliveTimeout = 5000;
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  const perClient = options.maxConnectionsPerClient ?? MAX_CONNECTIONS_PER_CLIENT;
  limitConnectionsPerClient(server, perClient);

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
    deploy: site.deploy,
    authenticate,
    identityProvider: provider,
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
