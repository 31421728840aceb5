/**
 * A faulty backend for proving `npm run verify`: the embedded mock (server/server.ts) behind a small
 * HTTP proxy that injects exactly one fault from ./faults.ts into the one operation the fault names.
 * Every other exchange is forwarded as received and answered as the mock answers it.
 *
 * By hand: `npm exec -- node verify/faults/backend.ts [fault]` prints the API base
 * URL to run verify (or curl) against; without a fault the proxy only passes through.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { matchOperation, operationSpecs, type OperationSpec } from '../../openapi-kit/index.ts';
import { startServer } from '../../server/index.ts';
import { signInAs, type Tokens } from '../../oidc/index.ts';
import { loadSpec } from '../../openapi-kit/node.ts';
import { refusedAuthorizations } from '../mock.ts';
import { FAULT_NAMES, FAULTS, type Answer, type Exchange, type Fault, type FaultName } from './faults.ts';

export { FAULT_NAMES, FAULTS, type FaultName } from './faults.ts';

export interface FaultyBackend {
  /** The API base URL, e.g. `http://127.0.0.1:PORT/api`. */
  baseUrl: string;
  /** grace's `Bearer …`: verify's --header. */
  authorization: string;
  /** linus's `Bearer …`: verify's --other-header. */
  otherAuthorization: string;
  /** ada's (the admin's) `Bearer …`: verify's --admin-header. */
  adminAuthorization: string;
  /**
   * What the API must refuse, verify's --refused-header: grace's ID token as a bearer token, and
   * access tokens of hers revoked, expired, expired after the API took one, for another API, without
   * `sub` or with an empty one (../mock.ts's refusedAuthorizations).
   */
  refusedAuthorizations: string[];
  close(): Promise<void>;
}

const API_BASE = '/api';
/** Hop-by-hop headers are the connection's, not the message's: neither side forwards them. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

let operations: readonly OperationSpec[] | undefined;

/** The operation of openapi.yaml a request reaches, by the path after the API base (literal paths win). */
function operationOf(method: string, url: string): string | undefined {
  const pathname = url.split(/[?#]/)[0]!;
  if (!pathname.startsWith(`${API_BASE}/`)) return undefined;
  operations ??= operationSpecs(loadSpec());
  return matchOperation(operations, method, pathname.slice(API_BASE.length))?.id;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => done(Buffer.concat(chunks)));
    stream.on('error', fail);
  });
}

function messageHeaders(raw: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || HOP_BY_HOP.has(key)) continue;
    out[key] = Array.isArray(value) ? value.join(key === 'set-cookie' ? '\n' : ', ') : value;
  }
  return out;
}

export async function startFaultyBackend(fault: FaultName | null): Promise<FaultyBackend> {
  const injected: Fault | null = fault === null ? null : FAULTS[fault];
  if (fault !== null && !injected) throw new Error(`No fault named '${fault}'; known: ${FAULT_NAMES.join(', ')}`);
  const mock = await startServer({ port: 0, delayMs: 0, distDir: null });
  const upstream = new URL(mock.url);
  // The members verify works as: grace, whose profile it creates, linus, who must be refused it, and
  // ada, the admin, who writes the shared collections (which grace must be refused). Signed in at
  // the mock's own provider, directly (the proxy only carries the API).
  // And what the API must refuse: grace's credentials, made by the same provider.
  let grace: Tokens, linus: Tokens, ada: Tokens, refused: string[];
  try {
    [[grace, linus, ada], refused] = await Promise.all([
      Promise.all([signInAs(mock.url, 'grace'), signInAs(mock.url, 'linus'), signInAs(mock.url, 'ada')]),
      refusedAuthorizations(mock, 'grace'),
    ]);
  } catch (error) {
    // A sign-in that fails leaves nothing listening behind it.
    await mock.close();
    throw error;
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });

  const send = (method: string, url: string, headers: Record<string, string>, body: Buffer): Promise<Answer> =>
    new Promise((done, fail) => {
      // The Host the client sent, as a reverse proxy keeps it: the mock then judges an `Origin` (a
      // cross-site request's) against the address the client used.
      const out: Record<string, string> = { host: upstream.host, ...headers };
      delete out['content-length'];
      if (body.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method)) out['content-length'] = String(body.length);
      const attempt = (retry: boolean) => {
        const req = httpRequest({ host: upstream.hostname, port: upstream.port, method, path: url, headers: out, agent }, (res) => {
          readAll(res).then(
            (payload) => done({ status: res.statusCode ?? 502, headers: messageHeaders(res.headers), body: payload }),
            fail,
          );
        });
        req.on('error', (error: NodeJS.ErrnoException) => {
          // A kept-alive socket the mock closed as idle just as it was reused: nothing reached the mock, send again.
          if (retry && req.reusedSocket && error.code === 'ECONNRESET') attempt(false);
          else fail(error);
        });
        req.end(body);
      };
      attempt(true);
    });

  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const work = async () => {
      const headers = messageHeaders(req.headers);
      const body = await readAll(req);
      const exchange: Exchange = {
        method,
        url,
        headers,
        body,
        forward: (init = {}) => send(init.method ?? method, init.url ?? url, init.headers ?? headers, init.body ?? body),
        ownerAuthorization: grace.authorization,
        adminAuthorization: ada.authorization,
      };
      const answer =
        injected && operationOf(method, url) === injected.operationId ? await injected.answer(exchange) : await exchange.forward();
      const out: Record<string, string | string[]> = { ...answer.headers };
      if (out['set-cookie'] !== undefined) out['set-cookie'] = String(out['set-cookie']).split('\n');
      if (answer.status === 204 || answer.status === 304) delete out['content-length'];
      else if (method !== 'HEAD') out['content-length'] = String(answer.body.length);
      res.writeHead(answer.status, out);
      res.end(method === 'HEAD' ? undefined : answer.body);
    };
    work().catch((error: unknown) => {
      // A failure of the proxy itself is no fault under test: say so loudly instead of answering as the API.
      console.error('Fault proxy failure', error);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`Fault proxy failure: ${String(error)}`);
    });
  });
  // Longer than any pause of a busy client between two requests: a client must never reuse a socket
  // this proxy is closing as idle (its request would get no answer, which is no fault under test).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}${API_BASE}`,
    authorization: grace.authorization,
    otherAuthorization: linus.authorization,
    adminAuthorization: ada.authorization,
    refusedAuthorizations: refused,
    close: async () => {
      await new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      });
      agent.destroy();
      await mock.close();
    },
  };
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const name = process.argv[2];
  if (name !== undefined && !(FAULT_NAMES as string[]).includes(name)) {
    console.error(`No fault named '${name}'. Faults:\n${FAULT_NAMES.map((f) => `  ${f.padEnd(40)} ${FAULTS[f].operationId}`).join('\n')}`);
    process.exit(2);
  }
  const backend = await startFaultyBackend((name as FaultName | undefined) ?? null);
  console.log(`${name ?? 'pass-through'}: API on ${backend.baseUrl}`);
  console.log(
    `npm run verify -- --base-url ${backend.baseUrl} --header 'Authorization: ${backend.authorization}' --other-header 'Authorization: ${backend.otherAuthorization}' --admin-header 'Authorization: ${backend.adminAuthorization}'${backend.refusedAuthorizations.map((refused) => ` --refused-header 'Authorization: ${refused}'`).join('')}`,
  );
  const stop = () => void backend.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
