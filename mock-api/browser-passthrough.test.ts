/**
 * In the dev server the mock runs in the page, through MSW's worker: it must answer the API on the
 * page's own origin and nothing else. Everything it does not claim (the app's files, the identity
 * provider under /oidc, another origin's /api) goes on to the network untouched.
 */
import { getResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import specText from '../openapi.yaml?raw';
import { createContract, type OpenApiDocument } from './contract.ts';
import { createMockBackend } from './mock.ts';

const started: unknown[] = [];
vi.mock('msw/browser', () => ({
  setupWorker: () => ({
    events: { on: () => undefined },
    start: async (options: unknown) => {
      started.push(options);
    },
  }),
}));

afterEach(() => {
  started.length = 0;
});

describe('the mock in the browser', () => {
  it('answers the API on the page origin and claims nothing else', async () => {
    const backend = await createMockBackend({ contract: createContract(parse(specText) as OpenApiDocument), delayMs: 0 });
    const page = location.origin;
    const answer = (url: string) => getResponse(backend.handlers, new Request(url));
    expect((await answer(`${page}/api/accounts`))?.status).toBe(200);
    expect((await answer(`${page}/api/no-such-collection`))?.status).toBe(404);
    for (const url of [
      `${page}/`,
      `${page}/assets/index-abc123.js`,
      `${page}/oidc/.well-known/openid-configuration`,
      `${page}/manifest.webmanifest`,
      'https://elsewhere.example/api/accounts',
    ]) {
      expect(await answer(url), url).toBeUndefined();
    }
  });

  it('starts MSW so that what no handler claims passes through, silently', async () => {
    const { startBrowserMocks } = await import('./browser.ts');
    await startBrowserMocks();
    expect(started).toEqual([expect.objectContaining({ onUnhandledFrame: 'bypass', quiet: true })]);
  });
});
