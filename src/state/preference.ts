import { computed, effect } from '@preact/signals-core';
import { PREFERENCE_KEY } from '../config/storage-keys';
import { loadLanguage } from '../i18n';
import { persistedSignal, readPersisted, type Decoder } from '../lib/persist';
import { recordChange } from './history';
import { isLanguage, matchBrowserLanguage, type Language } from '../config/languages';
import { type ColorScheme, colorSchemeOf, DEFAULT_COLOR_SCHEME, isThemeName, type ThemeName } from '../config/themes';

export interface PreferenceState {
  language: Language;
  /** The accent: one of the seed's themes, shown in the colour scheme below. */
  activeThemeName: ThemeName;
  enableNotifications: boolean;
  /** Light, dark or the system's; a preference stored without it (the seed's) keeps its theme's mode. */
  colorScheme: ColorScheme;
}

export { PREFERENCE_KEY };
export const DEFAULT_PREFERENCE: Readonly<PreferenceState> = Object.freeze({
  language: 'en',
  activeThemeName: 'INDIGO_PINK',
  enableNotifications: false,
  colorScheme: DEFAULT_COLOR_SCHEME,
});

/** Keeps every valid field of what was stored; a bad field falls back on its own. */
export const decodePreference: Decoder<PreferenceState> = (raw) => {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  return {
    language: isLanguage(r.language) ? r.language : DEFAULT_PREFERENCE.language,
    activeThemeName: isThemeName(r.activeThemeName) ? r.activeThemeName : DEFAULT_PREFERENCE.activeThemeName,
    enableNotifications: typeof r.enableNotifications === 'boolean' ? r.enableNotifications : DEFAULT_PREFERENCE.enableNotifications,
    colorScheme: colorSchemeOf(r),
  };
};

const state = persistedSignal<PreferenceState>(PREFERENCE_KEY, decodePreference, { ...DEFAULT_PREFERENCE });

export const preference = computed(() => state.value);
export const language = computed(() => state.value.language);
export const activeThemeName = computed(() => state.value.activeThemeName);
export const notificationsEnabled = computed(() => state.value.enableNotifications);
export const colorScheme = computed(() => state.value.colorScheme);

function update(action: string, patch: Partial<PreferenceState>) {
  state.value = { ...state.value, ...patch };
  recordChange('preference', action, state.value);
}

/**
 * A deployment's defaults (assets/ui-config.json's defaultLanguage and defaultTheme) for what the
 * visitor has not chosen yet: a field already stored, by an earlier choice, is kept. A deployment
 * that sets no language leaves it to the browser's languages (navigator.languages), then English.
 */
export function applyConfiguredDefaults(
  defaults: { defaultLanguage?: Language | undefined; defaultTheme: ThemeName },
  // Stryker disable next-line ArrayDeclaration: a list holding no language tag is matched by none, as an empty one is
  browserLanguages: readonly string[] = globalThis.navigator?.languages ?? [],
): void {
  const stored = readPersisted<Record<string, unknown>>(
    PREFERENCE_KEY,
    // Stryker disable next-line LogicalOperator: only .language and .activeThemeName are read, each checked, and a primitive or an array has neither
    (raw) => (raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null),
    {},
  );
  const patch: Partial<PreferenceState> = {};
  const firstLanguage = defaults.defaultLanguage ?? matchBrowserLanguage(browserLanguages) ?? DEFAULT_PREFERENCE.language;
  if (!isLanguage(stored.language) && state.value.language !== firstLanguage) patch.language = firstLanguage;
  if (!isThemeName(stored.activeThemeName) && state.value.activeThemeName !== defaults.defaultTheme) {
    patch.activeThemeName = defaults.defaultTheme;
  }
  if (Object.keys(patch).length > 0) update('applyConfiguredDefaults', patch);
}

export function changeLanguage(next: Language): void {
  update('changeLanguage', { language: next });
}
/** The accent; the colour scheme stays. */
export function changeTheme(next: ThemeName): void {
  update('changeTheme', { activeThemeName: next });
}
export function changeColorScheme(next: ColorScheme): void {
  update('changeColorScheme', { colorScheme: next });
}
export function enableNotifications(): void {
  update('enableNotifications', { enableNotifications: true });
}
export function disableNotifications(): void {
  update('disableNotifications', { enableNotifications: false });
}

/**
 * Keeps the interface language on the member's choice: each change loads that catalogue (the
 * screen stays in English until it is in). Started once by the boot; returns the stop function.
 */
export function followLanguagePreference(): () => void {
  return effect(() => {
    loadLanguage(language.value).catch(() => undefined);
  });
}
