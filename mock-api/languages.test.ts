// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { answerLanguage, languageRanges } from './languages.ts';

const FIVE = ['en', 'es', 'de', 'fr', 'zh-Hans'];

describe('languageRanges', () => {
  it('orders the ranges by quality, the order given among equals, lower-cased, and drops those of quality 0', () => {
    expect(languageRanges('de-CH, de;q=0.9, en;q=0.5')).toEqual(['de-ch', 'de', 'en']);
    expect(languageRanges('en;q=0.2,FR,es;q=0.8')).toEqual(['fr', 'es', 'en']);
    expect(languageRanges('fr;q=0, de')).toEqual(['de']);
    expect(languageRanges('es ; Q=0.500, it')).toEqual(['it', 'es']);
  });

  it('has none without the header', () => {
    expect(languageRanges(null)).toEqual([]);
  });
});

describe('answerLanguage', () => {
  it('gives the first range the notification has, whatever the case', () => {
    expect(answerLanguage(['it', 'fr', 'de'], FIVE)).toBe('fr');
    expect(answerLanguage(['zh-hans'], FIVE)).toBe('zh-Hans');
  });

  it('takes a language a range is a prefix of, and one that is a prefix of the range', () => {
    expect(answerLanguage(['zh'], FIVE)).toBe('zh-Hans');
    expect(answerLanguage(['fr-ca'], FIVE)).toBe('fr');
    // A prefix is a whole subtag: `z` is no prefix of `zh-Hans`, `frx` none of `fr`.
    expect(answerLanguage(['z', 'frx'], FIVE)).toBe('en');
  });

  it('prefers the tag equal to the range, then one it prefixes, then the longest it shortens to', () => {
    expect(answerLanguage(['en-us'], ['en', 'en-US'])).toBe('en-US');
    expect(answerLanguage(['zh'], ['en', 'zh-Hant', 'zh'])).toBe('zh');
    expect(answerLanguage(['de-ch-1996'], ['en', 'de', 'de-CH'])).toBe('de-CH');
  });

  it('falls back to English: without a range, with `*`, or when the notification has none asked for', () => {
    expect(answerLanguage([], FIVE)).toBe('en');
    expect(answerLanguage(['*', 'fr'], FIVE)).toBe('en');
    expect(answerLanguage(['fr'], ['en'])).toBe('en');
  });
});
