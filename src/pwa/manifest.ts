import type { ManifestOptions } from 'vite-plugin-pwa';
import { DEFAULT_THEME } from '../config/themes.ts';
import { THEMES } from '../ui/theme-colors.ts';

/** The web app manifest; icons are generated from public/logo.svg at build time. */
export const manifest: Partial<ManifestOptions> = {
  id: '/',
  name: 'Circle',
  short_name: 'Circle',
  description: 'Circle: your learning community, in your pocket. Keep your profile, follow your circle, even offline.',
  lang: 'en',
  dir: 'ltr',
  start_url: '/home',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  theme_color: THEMES[DEFAULT_THEME].primary,
  background_color: '#FAFAFA',
  categories: ['education', 'social'],
  screenshots: [
    { src: '/screenshots/home-wide.webp', sizes: '1280x720', type: 'image/webp', form_factor: 'wide', label: 'Circle home screen' },
    {
      src: '/screenshots/home-narrow.webp',
      sizes: '720x1280',
      type: 'image/webp',
      form_factor: 'narrow',
      label: 'Circle home screen on a phone',
    },
  ],
  shortcuts: [
    {
      name: 'Profile',
      short_name: 'Profile',
      url: '/profile',
      description: 'See and edit your profile',
      icons: [{ src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' }],
    },
    {
      name: 'Settings',
      short_name: 'Settings',
      url: '/settings',
      description: 'Language, theme and notifications',
      icons: [{ src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' }],
    },
  ],
};
