import { describe, expect, it } from 'vitest';
import { PAGE_MESSAGES, pageLanguage, type PageLanguage, type PageMessages } from './messages.ts';

/** Every message as text, the functions given sample arguments. */
function texts(m: PageMessages): [string, string][] {
  return Object.entries(m).map(([key, value]) => [
    key,
    typeof value === 'function'
      ? (value as (a: string | number, b?: string) => string)(key === 'unknownHostDetail' ? 8080 : 'X', 'Y')
      : value,
  ]);
}

describe('the provider pages speak the app’s languages', () => {
  it('takes the first of ui_locales Circle speaks, else Accept-Language by preference, else English', () => {
    expect(pageLanguage('fr', 'de')).toBe('fr');
    expect(pageLanguage('pt-BR zh-Hans', 'de')).toBe('zh-Hans');
    expect(pageLanguage('pt', 'es-MX,en;q=0.5')).toBe('es');
    expect(pageLanguage(undefined, 'en;q=0.2, de-AT;q=0.9, fr;q=0.5')).toBe('de');
    expect(pageLanguage(undefined, 'zh-CN,zh;q=0.9')).toBe('zh-Hans');
    expect(pageLanguage(undefined, 'fr;q=0, it')).toBe('en');
    expect(pageLanguage(42, undefined)).toBe('en');
    expect(pageLanguage('', '*')).toBe('en');
  });

  it('of Accept-Language tags with the same preference, the first listed wins', () => {
    expect(pageLanguage(undefined, 'fr, de')).toBe('fr');
    expect(pageLanguage(undefined, 'de, fr, es')).toBe('de');
    expect(pageLanguage(undefined, 'it;q=0.9, es;q=0.8, fr;q=0.8, de;q=0.8')).toBe('es');
    expect(pageLanguage(undefined, 'it, pt, es, fr, de, zh')).toBe('es');
  });

  it('every language says every message in its own words (only the names of things stay as in English)', () => {
    const english = new Map(texts(PAGE_MESSAGES.en));
    for (const language of ['es', 'de', 'fr', 'zh-Hans'] as PageLanguage[]) {
      for (const [key, text] of texts(PAGE_MESSAGES[language])) {
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        expect(text, `${language} ${key}`).not.toBe(english.get(key));
      }
    }
  });

  it('French typography: no-break spaces before : and ?, the typographic apostrophe', () => {
    for (const [key, text] of texts(PAGE_MESSAGES.fr)) {
      expect(text, key).not.toMatch(/'|[^\u00a0\u202f][;!?]|[^\u00a0\u202f]:(?!\/\/)/);
    }
  });
});
