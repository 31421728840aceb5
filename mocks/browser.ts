import { setupWorker } from 'msw/browser';
import { parse } from 'yaml';
import specText from '../openapi.yaml?raw';
import { createHandlers, createMockBackend } from './handlers.ts';
import type { OpenApiDocument } from './contract.ts';

/** The embedded mock backend in the dev server, through MSW's service worker. */
export async function startBrowserMocks(): Promise<void> {
  const backend = await createMockBackend({ spec: parse(specText) as OpenApiDocument, delayMs: 1000, basePath: '/api' });
  await setupWorker(...createHandlers(backend)).start({ onUnhandledFrame: 'bypass', quiet: true });
}
