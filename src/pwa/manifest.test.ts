import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ManifestOptions } from 'vite-plugin-pwa';
import { DEFAULT_THEME } from '../config/themes';
import { THEMES } from '../ui/theme-colors';

// The manifest is a module-level constant: read afresh so that each test sees the module as loaded.
let manifest: Partial<ManifestOptions>;
beforeEach(async () => {
  vi.resetModules();
  ({ manifest } = await import('./manifest'));
});

const PUBLIC = join(import.meta.dirname, '../../public');

/** Width and height of a lossy WebP (a RIFF file whose VP8 key frame header holds them). */
function webpSize(publicPath: string): { type: string; width: number; height: number } {
  const bytes = readFileSync(join(PUBLIC, publicPath));
  const text = (from: number, to: number) => bytes.subarray(from, to).toString('latin1');
  expect(text(0, 4)).toBe('RIFF');
  expect(text(8, 16)).toBe('WEBPVP8 ');
  return { type: 'image/webp', width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
}

describe('web app manifest', () => {
  it('presents the installed app as Circle, in English, standalone, in the default theme', () => {
    expect(manifest).toMatchObject({
      id: '/',
      name: 'Circle',
      short_name: 'Circle',
      description: 'Circle: your learning community, in your pocket. Keep your profile, follow your circle, even offline.',
      lang: 'en',
      dir: 'ltr',
      scope: '/',
      display: 'standalone',
      orientation: 'any',
      theme_color: THEMES[DEFAULT_THEME].primary,
      background_color: '#FAFAFA',
      categories: ['education', 'social'],
    });
  });

  it('opens on the home screen', () => {
    expect(manifest.start_url).toBe('/home');
  });

  it('offers shortcuts to Profile and Settings, with the launcher icon', () => {
    const icon = { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' };
    expect(manifest.shortcuts).toEqual([
      { name: 'Profile', short_name: 'Profile', url: '/profile', description: 'See and edit your profile', icons: [icon] },
      { name: 'Settings', short_name: 'Settings', url: '/settings', description: 'Language, theme and notifications', icons: [icon] },
    ]);
  });

  it('shows install dialogs a wide and a narrow screenshot of the home screen', () => {
    expect(manifest.screenshots).toEqual([
      { src: '/screenshots/home-wide.webp', sizes: '1280x720', type: 'image/webp', form_factor: 'wide', label: 'Circle home screen' },
      {
        src: '/screenshots/home-narrow.webp',
        sizes: '720x1280',
        type: 'image/webp',
        form_factor: 'narrow',
        label: 'Circle home screen on a phone',
      },
    ]);
  });

  it('names each screenshot by the type and size of the shipped image', () => {
    for (const shot of manifest.screenshots ?? []) {
      const { type, width, height } = webpSize(shot.src);
      expect(shot.type).toBe(type);
      expect(shot.sizes).toBe(`${width}x${height}`);
      expect(shot.form_factor).toBe(width > height ? 'wide' : 'narrow');
    }
  });
});
