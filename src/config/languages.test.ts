// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { LANGUAGES, isLanguage, matchBrowserLanguage, supportedLanguage } from './languages';

// Imported afresh inside the test: the names are made when the module is evaluated, and mutation
// testing switches a change on per test, after the file's own imports have run.
async function freshNames() {
  vi.resetModules();
  return (await import('./languages')).LANGUAGE_NAMES;
}

describe('languages', () => {
  it('are English, Spanish, German, French and Simplified Chinese, each named in itself', async () => {
    const names = await freshNames();
    // Product brief, settings: en, es, de, fr, zh-Hans.
    expect(LANGUAGES).toEqual(['en', 'es', 'de', 'fr', 'zh-Hans']);
    expect(LANGUAGES.map((l) => names[l])).toEqual(['English', 'Español', 'Deutsch', 'Français', '简体中文']);
    // Each is the language's own name for itself (CLDR's), capitalised as a list entry starts.
    for (const lang of LANGUAGES) {
      const own = new Intl.DisplayNames([lang], { type: 'language' }).of(lang)!;
      expect(names[lang].toLocaleLowerCase(lang), lang).toBe(own.toLocaleLowerCase(lang));
    }
  });

  it('codes are valid language tags, as <html lang> needs', () => {
    for (const lang of LANGUAGES) expect(Intl.getCanonicalLocales(lang)).toEqual([lang]);
  });

  it('isLanguage knows exactly the supported codes', () => {
    for (const lang of LANGUAGES) expect(isLanguage(lang)).toBe(true);
    for (const other of ['zh', 'zh-CN', 'zh-hans', 'fr-FR', 'EN', '', null, 42]) expect(isLanguage(other)).toBe(false);
  });
});

describe('supportedLanguage', () => {
  it.each([
    ['en', 'en'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['es-419', 'es'],
    ['de-AT', 'de'],
    ['de-CH', 'de'],
    ['fr', 'fr'],
    ['fr-CA', 'fr'],
    ['fr-BE', 'fr'],
    ['zh', 'zh-Hans'],
    ['zh-CN', 'zh-Hans'],
    ['zh-SG', 'zh-Hans'],
    ['zh-Hans', 'zh-Hans'],
    ['zh-Hans-CN', 'zh-Hans'],
    ['zh-Hans-HK', 'zh-Hans'],
    ['ZH-cn', 'zh-Hans'],
  ])('%s → %s', (tag, expected) => {
    expect(supportedLanguage(tag)).toBe(expected);
  });

  it.each([
    ['de-Latn-DE', 'de'],
    ['EN-us', 'en'],
    ['en-US-u-ca-gregory', 'en'],
    ['de-DE-1996', 'de'],
    ['es-419-u-nu-latn', 'es'],
    ['zh-Hans-CN-u-nu-hanidec', 'zh-Hans'],
  ])('%s → %s (a script, an extension or a variant)', (tag, expected) => {
    expect(supportedLanguage(tag)).toBe(expected);
  });

  it("reads a tag of English, Spanish, German or French without Intl's locale data (costly on its first use, before the first paint)", () => {
    const locale = vi.spyOn(Intl, 'Locale');
    try {
      expect(['en-US', 'fr', 'DE-at', 'es-419', 'en-US-u-ca-gregory'].map(supportedLanguage)).toEqual(['en', 'fr', 'de', 'es', 'en']);
      expect(locale).not.toHaveBeenCalled();
      expect([supportedLanguage('zh-TW'), supportedLanguage('pt-BR')]).toEqual([undefined, undefined]);
      expect(locale).toHaveBeenCalledTimes(2);
    } finally {
      locale.mockRestore();
    }
  });

  it.each(['zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant', 'zh-Hant-CN', 'yue', 'pt-BR', 'it', 'ja', '*', '', 'not a tag', 'en_US', '-en'])(
    '%s is not supported',
    (tag) => {
      expect(supportedLanguage(tag)).toBeUndefined();
    },
  );
});

describe('matchBrowserLanguage', () => {
  it("takes the first of the browser's languages the app speaks, in the browser's order", () => {
    expect(matchBrowserLanguage(['fr-CA', 'en-US'])).toBe('fr');
    expect(matchBrowserLanguage(['zh-TW', 'zh-Hant', 'ja', 'de-DE', 'fr'])).toBe('de');
    expect(matchBrowserLanguage(['zh-TW', 'zh-CN'])).toBe('zh-Hans');
    expect(matchBrowserLanguage(['pt-BR', 'es-MX'])).toBe('es');
  });

  it('is undefined when none is supported, so that English applies', () => {
    expect(matchBrowserLanguage(['zh-TW', 'ja-JP', 'pt'])).toBeUndefined();
    expect(matchBrowserLanguage([])).toBeUndefined();
  });
});
