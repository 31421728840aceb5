import { setupWorker } from 'msw/browser';
import { parse } from 'yaml';
import specText from '../openapi.yaml?raw';
import { createContract, type OpenApiDocument } from './contract.ts';
import { createMockBackend } from './mock.ts';
import { discoveredTokenAuthenticator } from './jwt.ts';

/** The embedded mock backend in the dev server, through MSW's service worker. */
export async function startBrowserMocks(): Promise<void> {
  const { origin } = location;
  const backend = await createMockBackend({
    contract: createContract(parse(specText) as OpenApiDocument),
    delayMs: 1000,
    // The dev server's own provider (vite.config.ts) issues the tokens; its key set is read over HTTP.
    authenticate: discoveredTokenAuthenticator(`${origin}/oidc`, `${origin}/api`),
  });
  const worker = setupWorker(...backend.handlers);
  // GET /__mock/requests lists the API's exchanges here too.
  const started = new Map<string, number>();
  worker.events.on('request:start', ({ requestId }) => {
    started.set(requestId, performance.now());
  });
  worker.events.on('response:mocked', ({ request, requestId, response }) => {
    const url = new URL(request.url);
    const since = started.get(requestId);
    started.delete(requestId);
    if (!url.pathname.startsWith(`${backend.basePath}/`) || since === undefined) return;
    backend.journal.record({
      method: request.method,
      path: url.pathname + url.search,
      status: response.type === 'error' ? 0 : response.status,
      time: new Date(Date.now() - (performance.now() - since)).toISOString(),
      duration: Math.round((performance.now() - since) * 10) / 10,
    });
  });
  await worker.start({ onUnhandledFrame: 'bypass', quiet: true });
}
