// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILTIN_CONFIG } from './builtin';
import { config, loadConfig, mergeConfig, UI_CONFIG_URL } from './load';

describe('the built-in config', () => {
  it("has the seed's constants", () => {
    expect(BUILTIN_CONFIG).toMatchObject({
      appTitle: 'Circle',
      logLevel: 3,
      mobileBreakpoint: 599,
      apiBaseUrl: '/api/',
      defaultTheme: 'INDIGO_PINK',
    });
  });

  it("sets no language: a first visit follows the browser's, then English (the preference's default)", () => {
    expect(BUILTIN_CONFIG).not.toHaveProperty('defaultLanguage');
  });
});

describe('mergeConfig', () => {
  it('lays valid remote fields over the base', () => {
    const merged = mergeConfig(BUILTIN_CONFIG, {
      appTitle: 'Circle Beta',
      apiBaseUrl: 'https://api.example.org/v2/',
      logLevel: 1,
      mobileBreakpoint: 720,
      defaultLanguage: 'de',
      defaultTheme: 'PURPLE_GREEN',
      chatBot: { v2: '/bot/v2' },
      identityProvider: { clientId: 'other-client' },
    });
    expect(merged).toEqual({
      ...BUILTIN_CONFIG,
      appTitle: 'Circle Beta',
      apiBaseUrl: 'https://api.example.org/v2/',
      logLevel: 1,
      mobileBreakpoint: 720,
      defaultLanguage: 'de',
      defaultTheme: 'PURPLE_GREEN',
      chatBot: { ...BUILTIN_CONFIG.chatBot, v2: '/bot/v2' },
      identityProvider: { ...BUILTIN_CONFIG.identityProvider, clientId: 'other-client' },
    });
  });

  it('takes any supported defaultLanguage, and leaves it unset when the file sets none', () => {
    expect(mergeConfig(BUILTIN_CONFIG, { defaultLanguage: 'fr' }).defaultLanguage).toBe('fr');
    expect(mergeConfig(BUILTIN_CONFIG, { defaultLanguage: 'zh-Hans' }).defaultLanguage).toBe('zh-Hans');
    expect(mergeConfig(BUILTIN_CONFIG, { appTitle: 'Circle' }).defaultLanguage).toBeUndefined();
  });

  it('ignores unknown and ill-typed fields one by one, keeping the valid ones', () => {
    const merged = mergeConfig(BUILTIN_CONFIG, {
      appTitle: 42,
      apiBaseUrl: '',
      eventBusUrl: 'wss://ok.example.org/bus',
      docsBaseUrl: ['x'],
      webPushPublicKey: 'x'.repeat(5000),
      logLevel: '4',
      mobileBreakpoint: 599.5,
      defaultLanguage: 'zh-TW',
      defaultTheme: 'HOTDOG',
      chatBot: { v1: null, v2: 7 },
      identityProvider: { issuer: true, scope: 'openid' },
      unknownField: 'whatever',
    });
    expect(merged).toEqual({
      ...BUILTIN_CONFIG,
      eventBusUrl: 'wss://ok.example.org/bus',
      chatBot: { ...BUILTIN_CONFIG.chatBot },
      identityProvider: { ...BUILTIN_CONFIG.identityProvider, scope: 'openid' },
    });
    expect(merged).not.toHaveProperty('unknownField');
  });

  it('is not fooled by a __proto__ key in the JSON', () => {
    const remote: unknown = JSON.parse('{"__proto__": {"appTitle": "polluted", "logLevel": 5}}');
    expect(mergeConfig(BUILTIN_CONFIG, remote)).toEqual(BUILTIN_CONFIG);
    expect(({} as { appTitle?: string }).appTitle).toBeUndefined();
  });

  it('rejects numbers out of range', () => {
    expect(mergeConfig(BUILTIN_CONFIG, { logLevel: 9, mobileBreakpoint: 10 })).toEqual(BUILTIN_CONFIG);
    expect(mergeConfig(BUILTIN_CONFIG, { logLevel: -1, mobileBreakpoint: 100000 })).toEqual(BUILTIN_CONFIG);
    expect(mergeConfig(BUILTIN_CONFIG, { logLevel: 0 }).logLevel).toBe(0);
  });

  it('gives the base for anything but an object', () => {
    for (const remote of [null, undefined, 'text', 3, true, [], [{ appTitle: 'x' }]]) {
      expect(mergeConfig(BUILTIN_CONFIG, remote)).toEqual(BUILTIN_CONFIG);
    }
  });

  it('ignores nested groups that are not objects', () => {
    expect(mergeConfig(BUILTIN_CONFIG, { chatBot: 'x', identityProvider: 5 })).toEqual(BUILTIN_CONFIG);
  });

  it('never changes the base', () => {
    const before = structuredClone(BUILTIN_CONFIG);
    const merged = mergeConfig(BUILTIN_CONFIG, { chatBot: { v1: '/x' }, identityProvider: { issuer: 'https://x' } });
    expect(merged.chatBot.v1).toBe('/x');
    expect(BUILTIN_CONFIG).toEqual(before);
  });
});

describe('loadConfig', () => {
  let errorLog: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    errorLog = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    // Leave the built-in config active for other tests.
    await loadConfig(async () => new Response('{}', { status: 200 }));
  });

  it('fetches the UI config and merges it over the built-in one', async () => {
    const fetcher = vi.fn(async () => new Response(JSON.stringify({ appTitle: 'Circle Staging', logLevel: 4 }), { status: 200 }));
    const loaded = await loadConfig(fetcher as unknown as typeof fetch);
    expect(fetcher).toHaveBeenCalledWith(UI_CONFIG_URL);
    expect(UI_CONFIG_URL).toBe('/assets/ui-config.json');
    expect(loaded).toEqual({ ...BUILTIN_CONFIG, appTitle: 'Circle Staging', logLevel: 4 });
    expect(config()).toEqual(loaded);
    expect(errorLog).not.toHaveBeenCalled();
  });

  const failures: [string, () => Promise<Response>][] = [
    ['an HTTP error', async () => new Response('Not found', { status: 404 })],
    ['a server error', async () => new Response('{"appTitle":"ignored"}', { status: 500 })],
    ['a network error', async () => Promise.reject(new TypeError('Failed to fetch'))],
    ['invalid JSON', async () => new Response('{"appTitle": "Broken",', { status: 200 })],
    ['an HTML page instead of JSON', async () => new Response('<!doctype html><title>x</title>', { status: 200 })],
  ];

  it.each(failures)("on %s logs 'Unable to load remote config url' and keeps the built-in config", async (_, respond) => {
    // A previous successful load must not survive a failed one.
    await loadConfig(async () => new Response(JSON.stringify({ appTitle: 'Earlier' }), { status: 200 }));
    expect(config().appTitle).toBe('Earlier');

    const loaded = await loadConfig(vi.fn(respond) as unknown as typeof fetch);
    expect(errorLog).toHaveBeenCalledTimes(1);
    expect(errorLog.mock.calls[0]![0]).toBe('Unable to load remote config url');
    expect(loaded).toEqual(BUILTIN_CONFIG);
    expect(loaded).toMatchObject({ appTitle: 'Circle', logLevel: 3, mobileBreakpoint: 599, apiBaseUrl: '/api/' });
    expect(config()).toEqual(BUILTIN_CONFIG);
  });

  it('logs through the given logger', async () => {
    const log = { error: vi.fn() };
    await loadConfig(async () => Promise.reject(new TypeError('offline')), log as unknown as Console);
    expect(log.error).toHaveBeenCalledWith('Unable to load remote config url', expect.any(TypeError));
  });
});
