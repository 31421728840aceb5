import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BeforeInstallPromptEvent } from './app';

async function freshApp() {
  vi.resetModules();
  return import('./app');
}

/** The app store's entries in the change log of the same module graph. */
async function appLog() {
  const { stateHistory } = await import('./history');
  return stateHistory()
    .filter((e) => e.store === 'app')
    .map((e) => [e.action, e.state]);
}

function fakePrompt(): BeforeInstallPromptEvent {
  const event = new Event('beforeinstallprompt') as BeforeInstallPromptEvent;
  return Object.assign(event, {
    platforms: ['web'],
    userChoice: Promise.resolve({ outcome: 'accepted' as const, platform: 'web' }),
    prompt: () => Promise.resolve(),
  });
}

describe('app store', () => {
  beforeEach(() => localStorage.clear());

  it('takes online from the browser, with no install prompt and not installed', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const offline = await freshApp();
    expect(offline.isOnline.value).toBe(false);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const app = await freshApp();
    expect(app.isOnline.value).toBe(true);
    expect(app.pendingInstallPrompt.value).toBeNull();
    expect(app.isInstalled.value).toBe(false);
    expect(app.canInstall.value).toBe(false);
  });

  it('setOnline follows the browser state', async () => {
    const app = await freshApp();
    app.setOnline(false);
    expect(app.isOnline.value).toBe(false);
    app.setOnline(true);
    expect(app.isOnline.value).toBe(true);
  });

  it('stores the install prompt, which makes installation possible', async () => {
    const app = await freshApp();
    const prompt = fakePrompt();
    app.storeInstallPrompt(prompt);
    expect(app.pendingInstallPrompt.value).toBe(prompt);
    expect(app.canInstall.value).toBe(true);
    app.storeInstallPrompt(null);
    expect(app.canInstall.value).toBe(false);
  });

  it("markInstalled sets installed, clears the prompt and persists 'app.installed'", async () => {
    const app = await freshApp();
    app.storeInstallPrompt(fakePrompt());
    app.markInstalled();
    expect(app.isInstalled.value).toBe(true);
    expect(app.pendingInstallPrompt.value).toBeNull();
    expect(app.canInstall.value).toBe(false);
    expect(localStorage.getItem('app.installed')).toBe('true');
  });

  it('an installed app offers no installation even when a prompt arrives', async () => {
    localStorage.setItem('app.installed', 'true');
    const app = await freshApp();
    expect(app.isInstalled.value).toBe(true);
    app.storeInstallPrompt(fakePrompt());
    expect(app.canInstall.value).toBe(false);
  });

  it('does not persist online or the install prompt', async () => {
    const app = await freshApp();
    app.setOnline(false);
    app.storeInstallPrompt(fakePrompt());
    expect(localStorage.length).toBe(0);
  });

  it('offers installation on screen once the app runs live, not in a prerender or while it hydrates', async () => {
    const app = await freshApp();
    const { setRenderMode } = await import('./render-mode');
    expect(app.installOffered.value).toBe(false);
    app.storeInstallPrompt(fakePrompt());
    // A fresh page runs live unless the boot says it hydrates prerendered HTML.
    expect(app.installOffered.value).toBe(true);
    setRenderMode('static');
    expect(app.installOffered.value).toBe(false);
    setRenderMode('live');
    app.markInstalled();
    expect(app.installOffered.value).toBe(false);
  });

  it('logs each change of connectivity once, and the install prompt and installation', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const app = await freshApp();
    app.setOnline(true);
    app.setOnline(false);
    app.setOnline(false);
    app.setOnline(true);
    app.storeInstallPrompt(fakePrompt());
    app.storeInstallPrompt(null);
    app.markInstalled();
    expect(await appLog()).toEqual([
      ['offline', { online: false }],
      ['online', { online: true }],
      ['installPromptStored', { installPrompt: true }],
      ['installPromptCleared', { installPrompt: false }],
      ['installed', { installed: true }],
    ]);
  });
});
