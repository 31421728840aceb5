/**
 * XSRF: the XSRF-TOKEN cookie is echoed as X-XSRF-TOKEN only on mutating requests (POST, PUT,
 * PATCH, DELETE) to the page's own origin. A fetch stub captures each Request as it would leave.
 * At the top of src/: the profile's upload, a layer above the client, is one of the requests.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type ApiClient } from './api/client';
import { profileCalls } from './test/profile-calls.test-support';
import { SAMPLE_PROFILE, SAMPLE_INPUT } from '../testkit/index.ts';

const PAGE = 'https://circle.example.org';
const COOKIES = 'theme=dark; XSRF-TOKEN=tok%2Fen%3D42; other=1';

function stubbed(baseUrl: string, options: { pageOrigin?: () => string | null; cookies?: () => string } = {}) {
  const sent: Request[] = [];
  const fetch = async (request: Request) => {
    sent.push(request);
    return new Response(null, { status: 204 });
  };
  const client: ApiClient = createApiClient({
    baseUrl,
    fetch,
    pageOrigin: options.pageOrigin ?? (() => PAGE),
    cookies: options.cookies ?? (() => COOKIES),
    log: () => {},
  });
  return { client, sent };
}

const only = (sent: Request[]): Request => {
  expect(sent).toHaveLength(1);
  return sent[0]!;
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('xsrfMiddleware', () => {
  it('adds X-XSRF-TOKEN, the decoded cookie value, to each mutating same-origin request', async () => {
    const calls: Array<[string, (c: ApiClient) => Promise<unknown>]> = [
      ['POST', (c) => c.POST('/symbols', { body: SAMPLE_INPUT.symbols })],
      ['PUT', (c) => c.PUT('/symbols/{id}', { params: { path: { id: '1' } }, body: SAMPLE_INPUT.symbols })],
      ['PATCH', (c) => c.PATCH('/symbols/{id}', { params: { path: { id: '1' } } })],
      ['DELETE', (c) => c.DELETE('/symbols/{id}', { params: { path: { id: '1' } } })],
    ];
    for (const [method, call] of calls) {
      const { client, sent } = stubbed(`${PAGE}/api`);
      await call(client);
      const request = only(sent);
      expect(request.method).toBe(method);
      expect(new URL(request.url).origin).toBe(PAGE);
      expect(request.headers.get('X-XSRF-TOKEN'), method).toBe('tok/en=42');
    }
  });

  it('adds no header to a same-origin GET', async () => {
    const { client, sent } = stubbed(`${PAGE}/api`);
    await client.GET('/symbols');
    expect(only(sent).headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('adds no header to a cross-origin POST: the token never leaves the page origin', async () => {
    const { client, sent } = stubbed('https://api.elsewhere.example/api');
    await client.POST('/symbols', { body: SAMPLE_INPUT.symbols });
    const request = only(sent);
    expect(request.method).toBe('POST');
    expect(request.headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('treats another port or scheme as another origin', async () => {
    for (const base of ['https://circle.example.org:8443/api', 'http://circle.example.org/api']) {
      const { client, sent } = stubbed(base);
      await client.POST('/symbols', { body: SAMPLE_INPUT.symbols });
      expect(only(sent).headers.has('X-XSRF-TOKEN'), base).toBe(false);
    }
  });

  it('adds no header without a page origin or without the cookie', async () => {
    const noOrigin = stubbed(`${PAGE}/api`, { pageOrigin: () => null });
    await noOrigin.client.POST('/symbols', { body: SAMPLE_INPUT.symbols });
    expect(only(noOrigin.sent).headers.has('X-XSRF-TOKEN')).toBe(false);
    const noCookie = stubbed(`${PAGE}/api`, { cookies: () => 'theme=dark; NOT-XSRF-TOKEN=x' });
    await noCookie.client.POST('/symbols', { body: SAMPLE_INPUT.symbols });
    expect(only(noCookie.sent).headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('the header survives the progress transport of the profile upload', async () => {
    // With a progress listener, profileApi sends through progressFetch, which rebuilds the Request
    // and calls the global fetch.
    const sent: Request[] = [];
    vi.stubGlobal('fetch', async (request: Request) => {
      sent.push(request);
      // A profile the client accepts: its answers are checked before they reach the app.
      const now = '2026-11-21T10:00:00Z';
      return Response.json({ id: 'p1', interests: [], createdAt: now, updatedAt: now, ...SAMPLE_PROFILE }, { status: 201 });
    });
    const { client } = stubbed(`${PAGE}/api`);
    const events: string[] = [];
    await profileCalls(client).create(SAMPLE_PROFILE, null, { onProgress: (e) => events.push(e.type) });
    expect(events[0]).toBe('sent');
    const request = only(sent);
    expect(request.url).toBe(`${PAGE}/api/user/profile`);
    expect(request.headers.get('X-XSRF-TOKEN')).toBe('tok/en=42');
    expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
  });
});
