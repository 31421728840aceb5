/**
 * The app's build, as vite.config.ts takes it: the plugins that prerender every route and write the
 * themes' stylesheet, and the web app manifest. Nothing in src/ imports this folder.
 */
export { manifest } from '../pwa/manifest.ts';
export { themeStylesheet } from './theme-stylesheet.ts';
export { prerenderPages } from './vite-plugin.ts';
