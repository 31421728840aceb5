import { describe, expect, it, vi } from 'vitest';
import { pageFileFor } from './page-files';
import { pagesToPrerender } from './pages';

describe('pageFileFor', () => {
  it("gives each prerendered route its page, home's for / too", () => {
    expect(pageFileFor('/')).toBe('/home.html');
    expect(pageFileFor('/home')).toBe('/home.html');
    expect(pageFileFor('/settings')).toBe('/settings.html');
    expect(pageFileFor('/404')).toBe('/404.html');
    expect(pageFileFor('/admin')).toBe('/admin.html');
    expect(pageFileFor('/admin/symbols')).toBe('/admin.html');
  });

  it('gives any other path the app shell', () => {
    expect(pageFileFor('/auth/callback')).toBe('/index.html');
    expect(pageFileFor('/settings/more')).toBe('/index.html');
    expect(pageFileFor('/administrator')).toBe('/index.html');
    expect(pageFileFor('/unknown')).toBe('/index.html');
  });
});

describe('pagesToPrerender', () => {
  it('renders every page file and the app shell, hydrating only public routes', () => {
    const pages = pagesToPrerender();
    expect(pages.map((p) => p.file).sort()).toEqual(
      ['404.html', 'admin.html', 'dashboard.html', 'home.html', 'index.html', 'profile.html', 'settings.html', 'sign-in.html'].sort(),
    );
    const hydrated = pages.filter((p) => p.render.kind === 'route').map((p) => p.file);
    expect(hydrated.sort()).toEqual(['404.html', 'dashboard.html', 'home.html', 'settings.html']);
  });

  it('fails the build for a page file it has no render for, naming the file', async () => {
    const { PAGE_FILES } = await import('./page-files');
    vi.resetModules();
    vi.doMock('./page-files', () => ({ PAGE_FILES: { ...PAGE_FILES, 'help.html': ['/help'] } }));
    try {
      const fresh = await import('./pages');
      expect(() => fresh.pagesToPrerender()).toThrow(new Error('No prerender for help.html'));
    } finally {
      vi.doUnmock('./page-files');
    }
  });
});
