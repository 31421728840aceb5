// @vitest-environment node
import { webcrypto } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';

// Imported afresh inside each test: the built-in values are made when the module is evaluated, and
// mutation testing switches a change on per test, after the file's own imports have run.
async function fresh() {
  vi.resetModules();
  const { BUILTIN_CONFIG } = await import('./builtin');
  const { DEFAULT_THEME } = await import('./themes');
  return { BUILTIN_CONFIG, DEFAULT_THEME };
}

describe('the built-in config', () => {
  it("has the seed's constants", async () => {
    const { BUILTIN_CONFIG, DEFAULT_THEME } = await fresh();
    // seed-spec §1 (the product's name), §9 (log level 3, breakpoint 599px, default theme INDIGO_PINK);
    // product brief: the API base URL is /api/ on the app's own origin by default.
    expect(BUILTIN_CONFIG).toMatchObject({
      appTitle: 'Circle',
      logLevel: 3,
      mobileBreakpoint: 599,
      apiBaseUrl: '/api/',
      defaultTheme: 'INDIGO_PINK',
    });
    expect(BUILTIN_CONFIG.defaultTheme).toBe(DEFAULT_THEME);
  });

  it("sets no language: a first visit follows the browser's, then English (the preference's default)", async () => {
    const { BUILTIN_CONFIG } = await fresh();
    expect(BUILTIN_CONFIG).not.toHaveProperty('defaultLanguage');
  });

  // seed-spec §7, "Other configured endpoints".
  it('names a websocket event bus and an absolute documentation base', async () => {
    const { BUILTIN_CONFIG } = await fresh();
    expect(new URL(BUILTIN_CONFIG.eventBusUrl).protocol).toBe('wss:');
    const docs = new URL(BUILTIN_CONFIG.docsBaseUrl);
    expect(docs.protocol).toBe('https:');
    // A base: pages are resolved against it, which keeps its last path segment only with a trailing slash.
    expect(docs.pathname.endsWith('/')).toBe(true);
  });

  it('names a chat-bot query endpoint for each of v1 and v2, on the app’s own origin', async () => {
    const { BUILTIN_CONFIG } = await fresh();
    const { v1, v2 } = BUILTIN_CONFIG.chatBot;
    for (const [version, path] of [
      ['v1', v1],
      ['v2', v2],
    ] as const) {
      expect(path, version).toMatch(/^\/(?!\/)/);
      expect(path.split('/'), version).toContain(version);
    }
  });

  it('has a web-push key PushManager.subscribe accepts: an uncompressed P-256 public key in URL-safe base64', async () => {
    const { BUILTIN_CONFIG } = await fresh();
    const key = BUILTIN_CONFIG.webPushPublicKey;
    expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
    const bytes = Buffer.from(key, 'base64url');
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(0x04);
    await expect(webcrypto.subtle.importKey('raw', bytes, { name: 'ECDH', namedCurve: 'P-256' }, true, [])).resolves.toBeDefined();
  });

  it('signs in with the embedded provider under /oidc, as its registered client, asking for what the session uses', async () => {
    const { BUILTIN_CONFIG } = await fresh();
    const { issuer, clientId, scope } = BUILTIN_CONFIG.identityProvider;
    // Product brief: the provider named in the configuration, an embedded one under /oidc by default.
    expect(issuer).toBe('/oidc');
    // The one client that provider registers (contract-tests/oidc-provider.test.ts signs in as it).
    expect(clientId).toBe('circle-web');
    // openid for an ID token, profile and email for the member's name and address, offline_access
    // for the refresh token the session renews itself with.
    expect(scope.split(' ').sort()).toEqual(['email', 'offline_access', 'openid', 'profile']);
  });
});
