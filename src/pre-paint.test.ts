import { afterEach, describe, expect, it, vi } from 'vitest';
import { takeEarlyInstallEvents } from './lib/early-install';
import { afterFirstContentfulPaint } from './lib/first-paint';
import { prePaint, startApp } from './pre-paint';

// The app is asked for only once the page has painted: each test decides when that paint comes.
vi.mock('./lib/first-paint', () => ({ afterFirstContentfulPaint: vi.fn() }));

const painted = vi.mocked(afterFirstContentfulPaint);

function page(prerenderedIn: string | null = 'en') {
  const html = document.createElement('html');
  if (prerenderedIn) html.setAttribute('data-prerender-lang', prerenderedIn);
  return html;
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  painted.mockReset();
});

describe('prePaint', () => {
  it('applies the stored theme and language, and hides text prerendered in another language', () => {
    localStorage.setItem('preference', JSON.stringify({ language: 'de', activeThemeName: 'PURPLE_GREEN', enableNotifications: false }));
    const html = page();
    prePaint(html);
    expect(html.dataset.theme).toBe('PURPLE_GREEN');
    expect(html.lang).toBe('de');
    expect(html.hasAttribute('data-l10n-pending')).toBe(true);
    expect(html.hasAttribute('data-account-pending')).toBe(false);
  });

  it('applies the stored colour scheme; a theme stored without one (as the seed stores it) shows in its own mode', () => {
    const html = page();
    localStorage.setItem('preference', JSON.stringify({ activeThemeName: 'PINK_BLUEGREY', colorScheme: 'light' }));
    prePaint(html);
    expect(html.dataset).toMatchObject({ theme: 'PINK_BLUEGREY', colorScheme: 'light' });
    localStorage.setItem('preference', JSON.stringify({ activeThemeName: 'PINK_BLUEGREY' }));
    prePaint(html);
    expect(html.dataset).toMatchObject({ theme: 'PINK_BLUEGREY', colorScheme: 'dark' });
    localStorage.setItem('preference', JSON.stringify({ activeThemeName: 'INDIGO_PINK', colorScheme: 'system' }));
    prePaint(html);
    expect(html.dataset).toMatchObject({ theme: 'INDIGO_PINK', colorScheme: 'system' });
  });

  it("keeps the prerendered text when it is in the member's language", () => {
    localStorage.setItem('preference', JSON.stringify({ language: 'en', activeThemeName: 'INDIGO_PINK' }));
    const html = page();
    prePaint(html);
    expect(html.lang).toBe('en');
    expect(html.hasAttribute('data-l10n-pending')).toBe(false);
  });

  it("on a first visit, takes the browser's language, as the app will", () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['fr-CA', 'en'] });
    const html = page();
    prePaint(html);
    expect(html.lang).toBe('fr');
    expect(html.dataset.theme).toBe('INDIGO_PINK');
    // A first visit follows the device's light or dark.
    expect(html.dataset.colorScheme).toBe('system');
    expect(html.hasAttribute('data-l10n-pending')).toBe(true);
  });

  it('falls back on the defaults for a broken or foreign stored value', () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['ja'] });
    localStorage.setItem('preference', '{"language": "xx", "activeThemeName": 7');
    const html = page();
    prePaint(html);
    expect(html.lang).toBe('en');
    expect(html.dataset.theme).toBe('INDIGO_PINK');
    localStorage.setItem('preference', JSON.stringify({ language: 'tlh', activeThemeName: 'NEON', colorScheme: 'sepia' }));
    prePaint(html);
    expect(html.lang).toBe('en');
    expect(html.dataset.theme).toBe('INDIGO_PINK');
    expect(html.dataset.colorScheme).toBe('system');
  });

  it('hides the prerendered, signed-out account slot of a member who is signed in', () => {
    localStorage.setItem('auth.isLoggedIn', 'true');
    const html = page();
    prePaint(html);
    expect(html.hasAttribute('data-account-pending')).toBe(true);
  });

  it('marks nothing on a page that was not prerendered', () => {
    localStorage.setItem('preference', JSON.stringify({ language: 'es' }));
    const html = page(null);
    prePaint(html);
    expect(html.lang).toBe('es');
    expect(html.hasAttribute('data-l10n-pending')).toBe(false);
  });

  it('falls back on the defaults for a preference stored as null', () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['de-AT'] });
    localStorage.setItem('preference', 'null');
    const html = page();
    prePaint(html);
    expect(html.dataset.theme).toBe('INDIGO_PINK');
    expect(html.lang).toBe('de');
  });

  it('falls back on the defaults for a preference stored as a string, a number, a boolean or a list', () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['fr-CA'] });
    for (const stored of ['"PINK_BLUEGREY"', '42', 'true', '["es","PURPLE_GREEN"]']) {
      localStorage.setItem('preference', stored);
      const html = page();
      prePaint(html);
      expect([stored, html.dataset.theme, html.lang]).toEqual([stored, 'INDIGO_PINK', 'fr']);
    }
  });

  it('takes English in a browser that names no language', () => {
    vi.stubGlobal('navigator', { ...navigator, languages: undefined });
    const html = page('de');
    prePaint(html);
    expect(html.lang).toBe('en');
    expect(html.hasAttribute('data-l10n-pending')).toBe(true);
  });

  it('marks the page with empty attributes, as the stylesheet and the end-to-end suite expect', () => {
    localStorage.setItem('preference', JSON.stringify({ language: 'fr' }));
    localStorage.setItem('auth.isLoggedIn', 'true');
    const html = page();
    prePaint(html);
    expect(html.getAttribute('data-l10n-pending')).toBe('');
    expect(html.getAttribute('data-account-pending')).toBe('');
  });

  it('leaves the account slot shown when the stored sign-in is anything but true', () => {
    localStorage.setItem('auth.isLoggedIn', '"true"');
    const html = page();
    prePaint(html);
    expect(html.hasAttribute('data-account-pending')).toBe(false);
  });

  it("sends a visitor signed out from a members' page on to sign-in, and lets a member and any other page be", () => {
    const at = (pathname: string) => ({ pathname, replace: vi.fn<(url: string) => void>() });
    const members = page();
    members.setAttribute('data-members-only', '');
    const admin = at('/admin/symbols');
    prePaint(members, admin);
    expect(admin.replace.mock.calls).toEqual([['/sign-in?next=%2Fadmin%2Fsymbols']]);
    // Stored as anything but true is signed out, as the app reads it.
    localStorage.setItem('auth.isLoggedIn', '"true"');
    const profile = at('/profile');
    prePaint(members, profile);
    expect(profile.replace.mock.calls).toEqual([['/sign-in?next=%2Fprofile']]);
    localStorage.setItem('auth.isLoggedIn', 'true');
    const member = at('/profile');
    prePaint(members, member);
    expect(member.replace).not.toHaveBeenCalled();
    localStorage.clear();
    const home = at('/home');
    prePaint(page(), home);
    expect(home.replace).not.toHaveBeenCalled();
  });
});

describe('startApp', () => {
  it('asks for the app only once the page has painted, and says so when it cannot load', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    startApp('/assets/no-such-entry.js');
    expect(painted).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(error).not.toHaveBeenCalled();
    painted.mock.calls[0]![0]();
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith('Circle failed to start', expect.any(Error)));
  });
});

describe('the script, as the page loads it', () => {
  async function load() {
    vi.resetModules();
    await import('./pre-paint');
  }

  it('marks the document itself with the stored theme and language', async () => {
    localStorage.setItem('preference', JSON.stringify({ language: 'es', activeThemeName: 'PINK_BLUEGREY' }));
    await load();
    expect(document.documentElement.dataset.theme).toBe('PINK_BLUEGREY');
    expect(document.documentElement.lang).toBe('es');
  });

  it('keeps an install offer made before the app has loaded, for the app to take over', async () => {
    takeEarlyInstallEvents();
    await load();
    const offer = new Event('beforeinstallprompt', { cancelable: true });
    window.dispatchEvent(offer);
    expect(offer.defaultPrevented).toBe(true);
    expect(takeEarlyInstallEvents()).toEqual({ prompt: offer, installed: false });
  });

  it('loads the app the build named, after the paint', async () => {
    vi.stubGlobal('__APP_ENTRY__', '/assets/entry-1234.js');
    await load();
    expect(painted).toHaveBeenCalledTimes(1);
  });

  it('loads nothing where the build named no app (the dev server loads it from the page)', async () => {
    await load();
    expect(painted).not.toHaveBeenCalled();
  });
});
