import { describe, expect, it } from 'vitest';
import { recordEarlyInstallEvents, takeEarlyInstallEvents } from './early-install';

/** A page of its own for each test: what is recorded lives on the window. */
const page = () => new EventTarget() as unknown as Window;

describe('install events recorded before the app listens', () => {
  it('hands over no prompt and no installation when the browser sent neither', () => {
    const target = page();
    recordEarlyInstallEvents(target);
    expect(takeEarlyInstallEvents(target)).toStrictEqual({ prompt: null, installed: false });
  });

  it("hands over the browser's prompt, with the browser's own infobar suppressed, and the installation", () => {
    const target = page();
    recordEarlyInstallEvents(target);
    const prompt = new Event('beforeinstallprompt', { cancelable: true });
    target.dispatchEvent(prompt);
    target.dispatchEvent(new Event('appinstalled'));
    expect(prompt.defaultPrevented).toBe(true);
    expect(takeEarlyInstallEvents(target)).toStrictEqual({ prompt, installed: true });
  });

  it('hands them over once', () => {
    const target = page();
    recordEarlyInstallEvents(target);
    expect(takeEarlyInstallEvents(target)).not.toBeNull();
    expect(takeEarlyInstallEvents(target)).toBeNull();
  });

  it('has nothing to hand over where nothing was recorded', () => {
    expect(takeEarlyInstallEvents(page())).toBeNull();
  });
});
