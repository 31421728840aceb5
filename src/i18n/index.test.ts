// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { effect } from '@preact/signals-core';
import { activeLanguage, format, formatDate, formatMoney, formatNumber, loadLanguage, t } from './index';
import { en } from './en';
import { es } from './es';
import { de } from './de';
import { LANGUAGES } from '../config/languages';

afterEach(() => loadLanguage('en'));

describe('format', () => {
  it('fills {name} placeholders and leaves unknown ones as they are', () => {
    expect(format('Welcome back, {name}!', 'en', { name: 'Ada' })).toBe('Welcome back, Ada!');
    expect(format('{a} and {b} and {a}', 'en', { a: 1, b: 'two' })).toBe('1 and two and 1');
    expect(format('Hello {missing}', 'en', {})).toBe('Hello {missing}');
    expect(format('No placeholders', 'en')).toBe('No placeholders');
  });

  it('does not re-expand placeholders found in a value', () => {
    expect(format('{a} {b}', 'en', { a: '{b}', b: 'x' })).toBe('{b} x');
  });

  it('chooses the plural form by the language rules and writes # as the number', () => {
    const template = 'Please correct {count, plural, one {# field} other {# fields}} before saving.';
    expect(format(template, 'en', { count: 1 })).toBe('Please correct 1 field before saving.');
    expect(format(template, 'en', { count: 0 })).toBe('Please correct 0 fields before saving.');
    expect(format(template, 'en', { count: 3 })).toBe('Please correct 3 fields before saving.');
    expect(format(template, 'en', { count: 1200 })).toBe('Please correct 1,200 fields before saving.');
    expect(format(template, 'de', { count: 1200 })).toBe('Please correct 1.200 fields before saving.');
  });

  it('falls back to the other form when a category is missing', () => {
    expect(format('{n, plural, other {# items}}', 'en', { n: 1 })).toBe('1 items');
  });

  it('mixes plural forms and plain placeholders', () => {
    expect(format('{name}: {n, plural, one {# message} other {# messages}}', 'en', { name: 'Inbox', n: 2 })).toBe('Inbox: 2 messages');
  });
});

describe('t', () => {
  it('translates in English by default', () => {
    expect(activeLanguage.value).toBe('en');
    expect(t('nav.home')).toBe('Home');
    expect(t('home.welcomeBack', { name: 'Ada' })).toBe('Welcome back, Ada!');
    expect(t('validation.summary', { count: 2 })).toBe('Please correct 2 fields before saving.');
  });

  it('switches when the language changes and its catalogue is loaded', async () => {
    await loadLanguage('es');
    expect(activeLanguage.value).toBe('es');
    expect(t('nav.home')).toBe(es['nav.home']);
    expect(t('nav.home')).not.toBe(en['nav.home']);
    expect(t('validation.summary', { count: 1 })).toBe('Corrige 1 campo antes de guardar.');
    await loadLanguage('de');
    expect(activeLanguage.value).toBe('de');
    expect(t('settings.title')).toBe(de['settings.title']);
    expect(t('validation.summary', { count: 3 })).toBe('Bitte korrigiere vor dem Speichern 3 Felder.');

    await loadLanguage('en');
    expect(t('settings.title')).toBe('Settings');
  });

  it('stays in English while the chosen catalogue is not loaded yet', async () => {
    // A fresh module graph: no catalogue but English is loaded.
    vi.resetModules();
    const i18n = await import('./index');
    const loading = i18n.loadLanguage('de');
    expect(i18n.activeLanguage.value).toBe('en');
    expect(i18n.t('nav.home')).toBe('Home');
    await loading;
    expect(i18n.activeLanguage.value).toBe('de');
    expect(i18n.t('nav.home')).toBe(de['nav.home']);
  });

  it('reads the catalogue through signals, so an effect re-runs on a language change', async () => {
    await loadLanguage('es');
    await loadLanguage('en');
    const seen: string[] = [];
    const stop = effect(() => void seen.push(t('nav.settings')));
    await loadLanguage('es');
    await loadLanguage('en');
    stop();
    expect(seen).toEqual(['Settings', es['nav.settings'], 'Settings']);
  });
});

/** The placeholder names a message uses, plural selectors included. */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  const withoutPlurals = message.replace(/\{(\w+), plural, ((?:\w+ \{[^}]*\}\s*)+)\}/g, (_, name: string, forms: string) => {
    names.add(`${name}:plural`);
    // The forms themselves must not hide placeholders of their own.
    for (const m of forms.matchAll(/\{(\w+)\}/g)) names.add(m[1]!);
    return '';
  });
  for (const m of withoutPlurals.matchAll(/\{(\w+)\}/g)) names.add(m[1]!);
  return [...names].sort();
}

describe('catalogues', () => {
  it.each([
    ['es', es],
    ['de', de],
  ] as const)('%s has exactly the keys of en', (_, catalogue) => {
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(en).sort());
  });

  it.each([
    ['es', es],
    ['de', de],
  ] as const)('%s uses the same placeholders as en in every message', (lang, catalogue) => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(catalogue[key]), `${lang} ${key}`).toEqual(placeholders(en[key]));
    }
  });

  it.each([
    ['es', es],
    ['de', de],
  ] as const)('%s has no empty message', (lang, catalogue) => {
    for (const [key, value] of Object.entries(catalogue)) expect(value.trim(), `${lang} ${key}`).not.toBe('');
  });

  it('the placeholder check sees plain and plural placeholders', () => {
    expect(placeholders('Hi {name}, {count, plural, one {# x} other {# xs}}')).toEqual(['count:plural', 'name']);
    expect(placeholders(en['validation.summary'])).toEqual(['count:plural']);
  });

  it('every language has a loadable catalogue', async () => {
    for (const lang of LANGUAGES) await expect(loadLanguage(lang)).resolves.toBeUndefined();
  });
});

describe('formatDate and formatNumber', () => {
  const date = new Date(Date.UTC(2024, 2, 5, 12, 0, 0));

  it('use the active language', async () => {
    expect(formatNumber(1234567.5)).toBe(new Intl.NumberFormat('en').format(1234567.5));
    expect(formatNumber(1234567.5)).toBe('1,234,567.5');
    expect(formatDate(date, { dateStyle: 'long', timeZone: 'UTC' })).toBe('March 5, 2024');
    await loadLanguage('de');
    expect(formatNumber(1234567.5)).toBe('1.234.567,5');
    expect(formatDate(date, { dateStyle: 'long', timeZone: 'UTC' })).toBe('5. März 2024');
    await loadLanguage('es');
    expect(formatNumber(0.5, { style: 'percent' })).toBe(new Intl.NumberFormat('es', { style: 'percent' }).format(0.5));
    expect(formatDate(date, { dateStyle: 'long', timeZone: 'UTC' })).toBe('5 de marzo de 2024');
  });

  it('formatDate accepts ISO strings and gives an empty string for invalid dates', () => {
    expect(formatDate('2024-03-05T12:00:00Z', { dateStyle: 'medium', timeZone: 'UTC' })).toBe('Mar 5, 2024');
    expect(formatDate('not a date')).toBe('');
  });

  it('formatMoney formats a currency, and falls back for an unknown code', () => {
    expect(formatMoney(12.5, 'EUR')).toBe(new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' }).format(12.5));
    expect(formatMoney(12.5, 'NOT-A-CODE')).toBe('12.5 NOT-A-CODE');
  });
});
