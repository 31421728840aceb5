import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BeforeInstallPromptEvent } from './app';

async function freshApp() {
  vi.resetModules();
  return import('./app');
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
});
