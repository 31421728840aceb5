/**
 * The app's surface for tools and the server (the browser starts at ./main.tsx): which prerendered
 * file answers which path, the built-in configuration the headers follow, the theme tokens, the
 * languages and the localStorage keys, every language's words, and the API's generated types. Only
 * plain modules, so that Node loads this file as it is; nothing in the page imports it.
 *
 * May import: its own layers' leaf modules (config, ui's tokens, i18n's catalogues); never the mock, the server, the provider or a tool.
 */
export { BUILTIN_CONFIG, type AppConfig } from './config/builtin.ts';
export { isAppPath, PAGE_FILES, pageFileFor, PRERENDER_ATTRIBUTE, SHELL_PATHS } from './config/page-files.ts';
export { LANGUAGES, type Language } from './config/languages.ts';
export { PREFERENCE_KEY } from './config/storage-keys.ts';
export { DEFAULT_THEME, THEME_NAMES, type ThemeName } from './config/themes.ts';
export { THEMES } from './ui/theme-colors.ts';
/** Every language's words, whole: the browser suites check that the pages say them. */
/**
 * Every language's words (English whole), for the suites that check what the pages say. Loaded when
 * asked for: the server imports this entry too, and starts without them.
 */
export const loadCatalogues = async () => (await import('./i18n/catalogues.ts')).CATALOGUES;
export type { Messages } from './i18n/en.ts';
/** The API's types, generated from openapi.yaml: the mock types its routes with them. */
export type { components, paths } from './api/schema';
/** The collections' names and records, for the suites' samples. */
export type { CollectionName, CollectionTypes } from './api/collections.ts';
/** The profile's types, for the suites' samples. */
export type { Profile, ProfileInput, ProfilePatch } from './profile/index.ts';
/** A member's session as the app keeps it on the device: the suites start signed in from one. */
export type { StoredSession } from './api/session-store.ts';
