/**
 * The API behind the app's contract tests: the Node mock server with Prism's validating proxy in
 * front, a client whose every answer is checked against the contract, the member's token on it,
 * and the error bodies the API answers.
 */
import { createApiClient, type ApiClient } from '../api/client';
import { startServer, type RunningServer } from '../../server/index.ts';
import type { Recorder } from '../../openapi-kit/node.ts';
import { startPrismProxy, type PrismProcess, uiConfigBuild } from '../../testkit/index.ts';

export interface ProxiedBackend {
  server: RunningServer;
  /** `prism proxy openapi.yaml <server>/api --errors`: every API path. */
  proxy: PrismProcess;
  /**
   * `prism proxy openapi.yaml <server> --errors`: the root of the origin, for the one operation that
   * lives outside the API base path (GET /assets/ui-config.json, `servers: [{url: /}]` in the file).
   */
  rootProxy: PrismProcess;
  stop(): Promise<void>;
}

/** The Node mock server (no delay) with a Prism proxy in front of its API and of its root. */
export async function startProxiedBackend(): Promise<ProxiedBackend> {
  const dist = uiConfigBuild();
  const server = await startServer({ port: 0, delayMs: 0, distDir: dist.dir });
  const started = await Promise.allSettled([
    startPrismProxy(`${server.url}/api`, { readyPath: '/symbols' }),
    startPrismProxy(server.url, { readyPath: '/assets/ui-config.json' }),
  ]);
  const stop = async () => {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
    await server.close();
    dist.remove();
  };
  const [api, root] = started;
  if (api.status === 'rejected' || root.status === 'rejected') {
    await stop();
    throw api.status === 'rejected' ? api.reason : (root as PromiseRejectedResult).reason;
  }
  return { server, proxy: api.value, rootProxy: root.value, stop };
}

/** A typed client whose every answer is checked against the contract by `recorder`. */
export function recordedClient(baseUrl: string, recorder: Recorder, log: (line: string) => void = () => {}): ApiClient {
  const client = createApiClient({ baseUrl, log });
  client.use(recorder.middleware());
  return client;
}

/**
 * Sends `authorization` (e.g. `Bearer <access token>`, from signInAs) with every request of
 * `client`; `() => string` reads it at each request, for a test that changes member or token.
 */
export function authorize(client: ApiClient, authorization: string | (() => string | null)): ApiClient {
  const read = typeof authorization === 'string' ? () => authorization : authorization;
  client.use({
    onRequest({ request }) {
      const value = read();
      if (value !== null) request.headers.set('authorization', value);
      return request;
    },
  });
  return client;
}

/** The reason phrase the API puts in `error` for each status it answers. */
const REASON: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  412: 'Precondition Failed',
  428: 'Precondition Required',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};

export const errorBody = (status: number, message: string) => ({ status, error: REASON[status], message });
