import { setupWorker } from 'msw/browser';
import { parse } from 'yaml';
import specText from '../openapi.yaml?raw';
import { createContract, type OpenApiDocument } from './contract.ts';
import { createMockBackend } from './mock.ts';

/** The embedded mock backend in the dev server, through MSW's service worker. */
export async function startBrowserMocks(): Promise<void> {
  const backend = await createMockBackend({ contract: createContract(parse(specText) as OpenApiDocument), delayMs: 1000 });
  await setupWorker(...backend.handlers).start({ onUnhandledFrame: 'bypass', quiet: true });
}
