import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BeforeInstallPromptEvent } from '../state/app';

/** Fresh stores and listeners for each test: installed state is persisted and read at start. */
async function fresh() {
  vi.resetModules();
  const [install, app, analytics] = await Promise.all([import('./install'), import('../state/app'), import('../lib/analytics')]);
  return { ...install, ...app, trackedEvents: analytics.trackedEvents };
}

function promptEvent(outcome: 'accepted' | 'dismissed' | Error) {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as BeforeInstallPromptEvent;
  const prompt = vi.fn(() => (outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve()));
  Object.assign(event, {
    platforms: ['web'],
    userChoice: outcome instanceof Error ? new Promise(() => {}) : Promise.resolve({ outcome, platform: 'web' }),
    prompt,
  });
  return { event, prompt };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('install prompt', () => {
  let stop: () => void = () => {};
  beforeEach(() => vi.spyOn(console, 'warn').mockImplementation(() => {}));
  afterEach(() => stop());

  it("captures the prompt, suppresses the browser's own, emits 'available', shows it and records the choice", async () => {
    const s = await fresh();
    stop = s.watchInstallPrompt(window);
    const { event, prompt } = promptEvent('accepted');
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(prompt).toHaveBeenCalledTimes(1);
    await flush();
    expect(s.trackedEvents().map((e) => `${e.category}:${e.action}`)).toEqual(['install:available', 'install:accepted']);
    // A prompt can be used once.
    expect(s.pendingInstallPrompt.value).toBeNull();
  });

  it("records 'dismissed' when the user says no", async () => {
    const s = await fresh();
    stop = s.watchInstallPrompt(window);
    window.dispatchEvent(promptEvent('dismissed').event);
    await flush();
    expect(s.trackedEvents().at(-1)).toMatchObject({ category: 'install', action: 'dismissed' });
  });

  it("records 'errored' when the prompt cannot be shown, and keeps it for the Install button", async () => {
    const s = await fresh();
    stop = s.watchInstallPrompt(window);
    const { event } = promptEvent(new Error('NotAllowedError'));
    window.dispatchEvent(event);
    await flush();
    expect(s.trackedEvents().at(-1)).toMatchObject({ category: 'install', action: 'errored' });
    expect(s.canInstall.value).toBe(true);
  });

  it("answers 'errored' to the Install button when the browser refuses, and says why in the log", async () => {
    const s = await fresh();
    const failure = new Error('NotAllowedError');
    s.storeInstallPrompt(promptEvent(failure).event);
    expect(await s.showInstallPrompt()).toBe('errored');
    expect(console.warn).toHaveBeenCalledWith('The install prompt could not be shown', failure);
  });

  it("answers 'unavailable' with no prompt, and with a prompt once the app is installed, showing nothing", async () => {
    localStorage.setItem('app.installed', 'true');
    const s = await fresh();
    expect(await s.showInstallPrompt()).toBe('unavailable');
    const { event, prompt } = promptEvent('accepted');
    s.storeInstallPrompt(event);
    expect(await s.showInstallPrompt()).toBe('unavailable');
    expect(prompt).not.toHaveBeenCalled();
  });

  it("sets installed on the browser's appinstalled event and clears the prompt", async () => {
    const s = await fresh();
    stop = s.watchInstallPrompt(window);
    s.storeInstallPrompt(promptEvent('dismissed').event);
    window.dispatchEvent(new Event('appinstalled'));
    expect(s.isInstalled.value).toBe(true);
    expect(s.canInstall.value).toBe(false);
    expect(localStorage.getItem('app.installed')).toBe('true');
    expect(s.trackedEvents().map((e) => `${e.category}:${e.action}`)).toEqual(['install:installed']);
  });

  it('ignores prompts once installed', async () => {
    localStorage.setItem('app.installed', 'true');
    const s = await fresh();
    stop = s.watchInstallPrompt(window);
    const { event, prompt } = promptEvent('accepted');
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(prompt).not.toHaveBeenCalled();
    expect(s.pendingInstallPrompt.value).toBeNull();
    expect(s.trackedEvents()).toEqual([]);
    expect(await s.showInstallPrompt()).toBe('unavailable');
  });

  it('stops listening when unsubscribed', async () => {
    const s = await fresh();
    s.watchInstallPrompt(window)();
    const { event, prompt } = promptEvent('accepted');
    window.dispatchEvent(event);
    expect(prompt).not.toHaveBeenCalled();
    expect(event.defaultPrevented).toBe(false);
    window.dispatchEvent(new Event('appinstalled'));
    expect(s.isInstalled.value).toBe(false);
  });
});

describe('install events fired before the app listened', () => {
  it('the prompt the pre-paint script recorded is taken over: suppressed, stored and shown', async () => {
    const s = await fresh();
    const { recordEarlyInstallEvents } = await import('../lib/early-install');
    const target = new EventTarget() as unknown as Window;
    recordEarlyInstallEvents(target);
    const { event, prompt } = promptEvent('dismissed');
    target.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(prompt).not.toHaveBeenCalled();
    const stop = s.watchInstallPrompt(target);
    try {
      expect(prompt).toHaveBeenCalledTimes(1);
      await flush();
      expect(s.trackedEvents().map((e) => `${e.category}:${e.action}`)).toEqual(['install:available', 'install:dismissed']);
    } finally {
      stop();
    }
  });

  it('an appinstalled recorded early marks the app installed; nothing recorded changes nothing', async () => {
    const s = await fresh();
    const { recordEarlyInstallEvents } = await import('../lib/early-install');
    const quiet = new EventTarget() as unknown as Window;
    recordEarlyInstallEvents(quiet);
    s.watchInstallPrompt(quiet)();
    expect(s.isInstalled.value).toBe(false);

    const target = new EventTarget() as unknown as Window;
    recordEarlyInstallEvents(target);
    target.dispatchEvent(new Event('appinstalled'));
    s.watchInstallPrompt(target)();
    expect(s.isInstalled.value).toBe(true);
    localStorage.removeItem('app.installed');
  });
});
