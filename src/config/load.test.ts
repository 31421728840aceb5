// @vitest-environment node
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Builtin from './builtin';
import type * as Load from './load';

// Both modules are evaluated afresh before each test, once it has started: their constants (the
// built-in values, the file's URL, the validators) are then made within the test, as on a first
// start, so that mutation testing, which switches a change on per test after the file's own imports
// have run, sees a changed constant here.
let BUILTIN_CONFIG: typeof Builtin.BUILTIN_CONFIG;
let config: typeof Load.config;
let loadConfig: typeof Load.loadConfig;
let mergeConfig: typeof Load.mergeConfig;
let UI_CONFIG_URL: typeof Load.UI_CONFIG_URL;
beforeEach(async () => {
  vi.resetModules();
  ({ BUILTIN_CONFIG } = await import('./builtin'));
  ({ config, loadConfig, mergeConfig, UI_CONFIG_URL } = await import('./load'));
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

  it.each([
    ['logLevel', 0, 5],
    ['mobileBreakpoint', 240, 2000],
  ] as const)('takes %s from %i to %i, both ends included, and nothing past either end', (key, min, max) => {
    for (const value of [min, max]) expect(mergeConfig(BUILTIN_CONFIG, { [key]: value })[key]).toBe(value);
    for (const value of [min - 1, max + 1]) expect(mergeConfig(BUILTIN_CONFIG, { [key]: value })[key]).toBe(BUILTIN_CONFIG[key]);
  });

  it('takes a text of 1 to 2047 characters, not one of 2048', () => {
    const title = (length: number) => mergeConfig(BUILTIN_CONFIG, { appTitle: 'x'.repeat(length) }).appTitle;
    expect(title(1)).toBe('x');
    expect(title(2047)).toBe('x'.repeat(2047));
    expect(title(2048)).toBe(BUILTIN_CONFIG.appTitle);
  });

  it("takes a deployment's own identity provider (product brief: the provider named in the configuration)", () => {
    const issuer = 'https://id.example.org/realms/circle';
    const merged = mergeConfig(BUILTIN_CONFIG, { identityProvider: { issuer } });
    expect(merged.identityProvider).toEqual({ ...BUILTIN_CONFIG.identityProvider, issuer });
  });

  it('gives the base for anything but an object', () => {
    for (const remote of [null, undefined, 'text', 3, true, [], [{ appTitle: 'x' }]]) {
      expect(mergeConfig(BUILTIN_CONFIG, remote)).toEqual(BUILTIN_CONFIG);
    }
  });

  it('ignores nested groups that are not objects, null included', () => {
    expect(mergeConfig(BUILTIN_CONFIG, { chatBot: 'x', identityProvider: 5 })).toEqual(BUILTIN_CONFIG);
    expect(mergeConfig(BUILTIN_CONFIG, { chatBot: null, identityProvider: null })).toEqual(BUILTIN_CONFIG);
  });

  it('reads settings from objects only: a function is ignored, whatever properties it carries', () => {
    // The remote value is typed unknown: a function with the right property names is still no settings object.
    const fn = (props: Record<string, string>) => Object.assign(() => undefined, props);
    expect(mergeConfig(BUILTIN_CONFIG, fn({ appTitle: 'From a function' }))).toEqual(BUILTIN_CONFIG);
    expect(mergeConfig(BUILTIN_CONFIG, { chatBot: fn({ v1: '/from-a-function' }) })).toEqual(BUILTIN_CONFIG);
    expect(mergeConfig(BUILTIN_CONFIG, { identityProvider: fn({ clientId: 'from-a-function' }) })).toEqual(BUILTIN_CONFIG);
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

  it('fetches the UI config and merges it over the built-in one', async () => {
    const fetcher = vi.fn(async () => new Response(JSON.stringify({ appTitle: 'Circle Staging', logLevel: 4 }), { status: 200 }));
    const loaded = await loadConfig(fetcher as unknown as typeof fetch);
    expect(fetcher).toHaveBeenCalledWith(UI_CONFIG_URL);
    // seed-spec §7: a GET of the remote UI configuration file under the application's assets.
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

  it('asks for the very file index.html preloads, with no options, so that the preloaded answer is the one used', async () => {
    const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    const preloaded = (html.match(/<link\b[^>]*>/g) ?? [])
      .filter((tag) => /\brel="preload"/.test(tag) && /\bas="fetch"/.test(tag))
      .map((tag) => /\bhref="([^"]*)"/.exec(tag)?.[1]);
    expect(preloaded).toContain(UI_CONFIG_URL);
    const fetcher = vi.fn(async () => new Response('{}', { status: 200 }));
    await loadConfig(fetcher as unknown as typeof fetch);
    expect(fetcher.mock.calls).toEqual([[UI_CONFIG_URL]]);
  });

  it.each([404, 500, 503])('reports an HTTP %i with its status', async (status) => {
    const log = { error: vi.fn() };
    await loadConfig(async () => new Response('', { status }), log as unknown as Console);
    expect(log.error).toHaveBeenCalledTimes(1);
    const error: unknown = log.error.mock.calls[0]![1];
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`HTTP ${status}`);
  });

  it('logs through the given logger', async () => {
    const log = { error: vi.fn() };
    await loadConfig(async () => Promise.reject(new TypeError('offline')), log as unknown as Console);
    expect(log.error).toHaveBeenCalledWith('Unable to load remote config url', expect.any(TypeError));
  });
});
