import { afterEach, describe, expect, it, vi } from 'vitest';
import { prePaint } from './pre-paint';

function page(prerenderedIn: string | null = 'en') {
  const html = document.createElement('html');
  if (prerenderedIn) html.setAttribute('data-prerender-lang', prerenderedIn);
  return html;
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
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
    expect(html.hasAttribute('data-l10n-pending')).toBe(true);
  });

  it('falls back on the defaults for a broken or foreign stored value', () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['ja'] });
    localStorage.setItem('preference', '{"language": "xx", "activeThemeName": 7');
    const html = page();
    prePaint(html);
    expect(html.lang).toBe('en');
    expect(html.dataset.theme).toBe('INDIGO_PINK');
    localStorage.setItem('preference', JSON.stringify({ language: 'tlh', activeThemeName: 'NEON' }));
    prePaint(html);
    expect(html.lang).toBe('en');
    expect(html.dataset.theme).toBe('INDIGO_PINK');
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
});
