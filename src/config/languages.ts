export const LANGUAGES = ['en', 'es', 'de', 'fr', 'zh-Hans'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  // Stryker disable next-line ConditionalExpression: includes() compares with SameValueZero and the list holds strings only, so a non-string is refused with or without the typeof test (it narrows the type for the compiler)
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Each language's name in itself, for the language picker. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  de: 'Deutsch',
  fr: 'Français',
  'zh-Hans': '简体中文',
};

/**
 * The supported language a browser language tag asks for: a region never matters (fr-CA is fr),
 * and Chinese counts only in the Simplified script, written or implied (zh-CN, zh-SG and zh-Hans-HK
 * are zh-Hans; zh-TW, zh-HK and zh-Hant are not supported).
 */
export function supportedLanguage(tag: string): Language | undefined {
  // A tag of English, Spanish, German or French is read from its first subtag: no alias leads away
  // from them, and Intl's locale data costs tens of milliseconds on its first use, which the
  // pre-paint script would spend before the first paint. Chinese needs the likely script of its
  // region, and any other language is looked up (it may be an alias of a supported one).
  const primary = tag.split('-')[0]!.toLowerCase();
  if (isLanguage(primary)) return primary;
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag).maximize();
  } catch {
    return undefined;
  }
  if (locale.language === 'zh') return locale.script === 'Hans' ? 'zh-Hans' : undefined;
  return isLanguage(locale.language) ? locale.language : undefined;
}

/** The first of the browser's languages (navigator.languages, in its order) that the app speaks. */
export function matchBrowserLanguage(tags: readonly string[]): Language | undefined {
  for (const tag of tags) {
    const language = supportedLanguage(tag);
    if (language) return language;
  }
  return undefined;
}
