// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { effect } from '@preact/signals-core';
import { activeLanguage, format, formatDate, formatMoney, formatNumber, formatRelativeTime, loadLanguage, t, withWords } from './index';
import { en as FIRST_SCREENS, type Messages } from './en';
import { es } from './es';
import { de } from './de';
import { fr } from './fr';
import { zhHans } from './zh-Hans';
import { LANGUAGES, type Language } from '../config/languages';
import { CATALOGUES } from './catalogues';
import { ENGLISH_PARTS } from './parts';

/** The whole English: the first screens' words and every part. */
const en = CATALOGUES.en;
const TRANSLATIONS: Record<Exclude<Language, 'en'>, Messages> = { es, de, fr, 'zh-Hans': zhHans };
const TRANSLATED_LANGUAGES = Object.keys(TRANSLATIONS) as Exclude<Language, 'en'>[];

/**
 * A catalogue's module evaluated anew, inside the test: its messages are made when it runs, so a
 * check on the copy imported above would never see a message changed since (mutation testing
 * changes one per test).
 */
async function freshCatalogue(lang: Exclude<Language, 'en'>): Promise<Messages> {
  vi.resetModules();
  const load = {
    es: async () => (await import('./es')).es,
    de: async () => (await import('./de')).de,
    fr: async () => (await import('./fr')).fr,
    'zh-Hans': async () => (await import('./zh-Hans')).zhHans,
  } satisfies Record<Exclude<Language, 'en'>, () => Promise<Messages>>;
  return load[lang]();
}

/** The i18n module evaluated anew, inside the test: its loaders and tables are made when it runs. */
async function freshI18n() {
  vi.resetModules();
  return import('./index');
}

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

  it('shows nothing for a plural with neither the category needed nor other', () => {
    expect(format('{n, plural, one {# item}}', 'en', { n: 2 })).toBe('');
  });

  it('falls back to the other form when a category is missing', () => {
    expect(format('{n, plural, other {# items}}', 'en', { n: 1 })).toBe('1 items');
  });

  it('mixes plural forms and plain placeholders', () => {
    expect(format('{name}: {n, plural, one {# message} other {# messages}}', 'en', { name: 'Inbox', n: 2 })).toBe('Inbox: 2 messages');
  });
});

describe('t', () => {
  /** A module that says the words of the forms and of the settings screen, as one takes them. */
  const said = withWords(ENGLISH_PARTS.forms, ENGLISH_PARTS.settings);

  it('translates in English by default', () => {
    expect(activeLanguage.value).toBe('en');
    expect(t('nav.home')).toBe('Home');
    expect(t('home.welcomeBack', { name: 'Ada' })).toBe('Welcome back, Ada!');
    expect(said('validation.summary', { count: 2 })).toBe('Please correct 2 fields before saving.');
  });

  it("says a part's words only once a module has taken them: until then, the key", async () => {
    vi.resetModules();
    const i18n = await import('./index');
    // @ts-expect-error: a word of the admin screen's part is not one of the first screens'
    expect(i18n.t('admin.title')).toBe('admin.title');
    const admin = i18n.withWords(ENGLISH_PARTS.admin);
    expect(admin('admin.title')).toBe(ENGLISH_PARTS.admin['admin.title']);
    // @ts-expect-error: nor is a word of a part this module did not take
    expect(admin('settings.title')).toBe('settings.title');
  });

  it('switching back to English loads nothing: its catalogue is always there', async () => {
    const { loadLanguage, activeLanguage, t } = await freshI18n();
    await loadLanguage('fr');
    await expect(loadLanguage('en')).resolves.toBeUndefined();
    expect(activeLanguage.value).toBe('en');
    expect(t('home.intro')).toBe(en['home.intro']);
  });

  it('switches when the language changes and its catalogue is loaded', async () => {
    await loadLanguage('es');
    expect(activeLanguage.value).toBe('es');
    expect(t('nav.home')).toBe(es['nav.home']);
    expect(t('nav.home')).not.toBe(en['nav.home']);
    expect(said('validation.summary', { count: 1 })).toBe('Corrige 1 campo antes de guardar.');
    await loadLanguage('de');
    expect(activeLanguage.value).toBe('de');
    expect(said('settings.title')).toBe(de['settings.title']);
    expect(said('validation.summary', { count: 3 })).toBe('Bitte korrigiere vor dem Speichern 3 Felder.');

    await loadLanguage('en');
    expect(said('settings.title')).toBe('Settings');
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

  it('keeps the language on screen while the next one loads, and the last choice wins', async () => {
    vi.resetModules();
    const i18n = await import('./index');
    await i18n.loadLanguage('fr');
    const toGerman = i18n.loadLanguage('de');
    expect(i18n.activeLanguage.value).toBe('fr');
    expect(i18n.t('nav.home')).toBe('Accueil');
    const seen: string[] = [];
    const stop = effect(() => void seen.push(i18n.activeLanguage.value));
    // Chinese is chosen while German still loads: German, whenever it arrives, is never shown.
    const toChinese = i18n.loadLanguage('zh-Hans');
    await Promise.all([toGerman, toChinese]);
    stop();
    expect(seen).toEqual(['fr', 'zh-Hans']);
    expect(i18n.t('nav.home')).toBe('首页');
    expect(i18n.withWords(ENGLISH_PARTS.forms)('validation.summary', { count: 3 })).toBe('保存前请更正 3 个字段。');
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

/**
 * Messages that are rightly the same as in English: the product's name, and words that are spelt
 * the same in that language. Anything else equal to English is a message left untranslated.
 */
const SAME_AS_ENGLISH: Record<Exclude<Language, 'en'>, readonly string[]> = {
  es: ['app.name', 'field.avatar', 'admin.no'],
  de: [
    'app.name',
    'status.offline',
    'notifications.level.info',
    'notifications.level.error',
    'field.avatar',
    'admin.hint.format',
    'settings.colorScheme.system',
  ],
  fr: [
    'app.name',
    'nav.adminMenu',
    'notifications.level.info',
    'field.avatar',
    'settings.notifications',
    'dashboard.notifications',
    'nav.notifications',
    'inbox.title',
    'admin.actions',
  ],
  'zh-Hans': ['app.name'],
};

/** The plural categories each {n, plural, …} form of a message names. */
function pluralCategories(message: string): string[][] {
  return [...message.matchAll(/\{\w+, plural, ((?:\w+ \{[^}]*\}\s*)+)\}/g)].map((m) => [...m[1]!.matchAll(/(\w+) \{/g)].map((c) => c[1]!));
}

describe('catalogues', () => {
  it('the parts of English share no key', () => {
    const parts = [FIRST_SCREENS, ...Object.values(ENGLISH_PARTS)];
    expect(parts.reduce((n, part) => n + Object.keys(part).length, 0)).toBe(Object.keys(en).length);
  });

  it('there is one for every language, and nothing else', () => {
    expect(Object.keys(TRANSLATIONS).sort()).toEqual(LANGUAGES.filter((l) => l !== 'en').sort());
  });

  it.each(TRANSLATED_LANGUAGES)('%s has exactly the keys of en', async (lang) => {
    const catalogue = await freshCatalogue(lang);
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(TRANSLATED_LANGUAGES)('%s uses the same placeholders as en in every message', async (lang) => {
    const catalogue = await freshCatalogue(lang);
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(catalogue[key]), `${lang} ${key}`).toEqual(placeholders(en[key]));
    }
  });

  it.each(TRANSLATED_LANGUAGES)('%s has no empty message', async (lang) => {
    const catalogue = await freshCatalogue(lang);
    for (const [key, value] of Object.entries(catalogue)) expect(value.trim(), `${lang} ${key}`).not.toBe('');
  });

  it.each(TRANSLATED_LANGUAGES)('%s leaves no message in English but the listed ones', async (lang) => {
    const catalogue = await freshCatalogue(lang);
    const same = Object.keys(en).filter((key) => catalogue[key as keyof typeof en] === en[key as keyof typeof en]);
    expect(same.sort()).toEqual([...SAME_AS_ENGLISH[lang]].sort());
  });

  it.each(LANGUAGES)("%s: every plural form names 'other' and only categories the language has", (lang) => {
    const catalogue = lang === 'en' ? en : TRANSLATIONS[lang];
    const known = new Intl.PluralRules(lang).resolvedOptions().pluralCategories as string[];
    for (const [key, message] of Object.entries(catalogue)) {
      for (const categories of pluralCategories(message)) {
        expect(categories, `${lang} ${key}`).toContain('other');
        for (const category of categories) expect(known, `${lang} ${key}: ${category}`).toContain(category);
      }
    }
  });

  it('French plurals have one and other (0 and 1 are singular); Chinese has other only', () => {
    expect(pluralCategories(fr['validation.summary'])).toEqual([['one', 'other']]);
    expect(pluralCategories(zhHans['validation.summary'])).toEqual([['other']]);
    expect(format(fr['validation.summary'], 'fr', { count: 0 })).toBe('Corrigez 0 champ avant d’enregistrer.');
    expect(format(fr['validation.summary'], 'fr', { count: 1 })).toBe('Corrigez 1 champ avant d’enregistrer.');
    expect(format(fr['validation.summary'], 'fr', { count: 2 })).toBe('Corrigez 2 champs avant d’enregistrer.');
    expect(format(fr['validation.summary'], 'fr', { count: 1200 })).toBe('Corrigez 1\u202f200 champs avant d’enregistrer.');
    expect(format(zhHans['validation.summary'], 'zh-Hans', { count: 1 })).toBe('保存前请更正 1 个字段。');
  });

  it('French typography: no-break spaces before : ; ! ? % and inside « », the typographic apostrophe', () => {
    for (const [key, message] of Object.entries(fr)) {
      // A plain (breakable) space, or none, before the high punctuation.
      expect(message, key).not.toMatch(/[^\u00a0\u202f][;!?%»]|[^\u00a0\u202f]:(?!\/\/)|«[^\u00a0\u202f]/);
      expect(message, key).not.toMatch(/'/);
    }
    expect(fr['admin.collection']).toBe('Collection\u00a0: {name}');
    expect(fr['profile.deleteConfirmTitle']).toBe('Supprimer votre profil\u202f?');
  });

  it('Chinese uses full-width punctuation next to Chinese text', () => {
    const han = '\\p{Script=Han}';
    const halfWidth = new RegExp(`${han}[,.:;!?()]|[,:;!?()]${han}`, 'u');
    for (const [key, message] of Object.entries(zhHans)) {
      expect(message, key).not.toMatch(halfWidth);
      // A sentence ends with a full stop (or ！？), never with an ASCII one.
      expect(message, key).not.toMatch(new RegExp(`${han}\\.$`, 'u'));
    }
  });

  it('the placeholder check sees plain and plural placeholders', () => {
    expect(placeholders('Hi {name}, {count, plural, one {# x} other {# xs}}')).toEqual(['count:plural', 'name']);
    expect(placeholders(en['validation.summary'])).toEqual(['count:plural']);
  });

  it('every language has a loadable catalogue, and t() then reads it', async () => {
    const { loadLanguage, activeLanguage, t } = await freshI18n();
    for (const lang of LANGUAGES) {
      await expect(loadLanguage(lang)).resolves.toBeUndefined();
      expect(activeLanguage.value).toBe(lang);
      expect(t('home.intro')).toBe(lang === 'en' ? en['home.intro'] : TRANSLATIONS[lang]['home.intro']);
    }
  });
});

describe('prefetchLanguages', () => {
  it('fetches every catalogue but English (always there), each whole, without showing any', async () => {
    const { prefetchLanguages, activeLanguage } = await freshI18n();
    const results = (await prefetchLanguages()) as PromiseSettledResult<Messages>[];
    expect(results).toHaveLength(LANGUAGES.length - 1);
    for (const result of results) {
      expect(result.status).toBe('fulfilled');
      if (result.status === 'fulfilled') expect(Object.keys(result.value).sort()).toEqual(Object.keys(en).sort());
    }
    expect(activeLanguage.value).toBe('en');
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

  it('follow French and Chinese conventions', async () => {
    await loadLanguage('fr');
    expect(formatNumber(1234567.5)).toBe('1\u202f234\u202f567,5');
    expect(formatMoney(1250.5, 'EUR')).toBe('1\u202f250,50\u00a0€');
    expect(formatDate(date, { dateStyle: 'long', timeZone: 'UTC' })).toBe('5 mars 2024');
    await loadLanguage('zh-Hans');
    expect(formatNumber(1234567.5)).toBe('1,234,567.5');
    expect(formatMoney(980.25, 'USD')).toBe('US$980.25');
    expect(formatDate(date, { dateStyle: 'long', timeZone: 'UTC' })).toBe('2024年3月5日');
  });

  it('formatRelativeTime says how long ago or ahead, in the largest whole unit and the active language', async () => {
    const now = Date.UTC(2026, 10, 23, 12, 0, 0);
    const ago = (seconds: number) => now - seconds * 1000;
    expect(formatRelativeTime(ago(3), now)).toBe('now');
    expect(formatRelativeTime(ago(42), now)).toBe('42 seconds ago');
    expect(formatRelativeTime(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(3 * 3600 + 1200), now)).toBe('3 hours ago');
    expect(formatRelativeTime(ago(30 * 3600), now)).toBe('yesterday');
    expect(formatRelativeTime(ago(3 * 86400 + 3600), now)).toBe('3 days ago');
    expect(formatRelativeTime(ago(15 * 86400), now)).toBe('2 weeks ago');
    expect(formatRelativeTime(ago(45 * 86400), now)).toBe('last month');
    expect(formatRelativeTime(ago(800 * 86400), now)).toBe('2 years ago');
    expect(formatRelativeTime(now + 2 * 3600 * 1000, now)).toBe('in 2 hours');
    expect(formatRelativeTime('2026-11-20T08:15:00Z', now)).toBe('3 days ago');
    expect(formatRelativeTime('not a date', now)).toBe('');
    await loadLanguage('fr');
    expect(formatRelativeTime(ago(3 * 86400), now)).toBe('il y a 3 jours');
    expect(formatRelativeTime(ago(30 * 3600), now)).toBe('hier');
    await loadLanguage('zh-Hans');
    expect(formatRelativeTime(ago(3 * 86400), now)).toBe('3天前');
    expect(formatRelativeTime(ago(5 * 60), now)).toBe('5分钟前');
    await loadLanguage('de');
    expect(formatRelativeTime(ago(3 * 86400), now)).toBe('vor 3 Tagen');
  });

  it('formatRelativeTime changes unit exactly at each unit’s length, and says “now” under ten seconds', async () => {
    const { formatRelativeTime } = await freshI18n();
    const now = Date.UTC(2026, 10, 23, 12, 0, 0);
    const ago = (seconds: number) => now - seconds * 1000;
    expect(formatRelativeTime(ago(9), now)).toBe('now');
    expect(formatRelativeTime(ago(10), now)).toBe('10 seconds ago');
    expect(formatRelativeTime(ago(59), now)).toBe('59 seconds ago');
    expect(formatRelativeTime(ago(60), now)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(3600), now)).toBe('1 hour ago');
    expect(formatRelativeTime(ago(86_400), now)).toBe('yesterday');
    expect(formatRelativeTime(ago(7 * 86_400), now)).toBe('last week');
    expect(formatRelativeTime(ago(30 * 86_400), now)).toBe('last month');
    expect(formatRelativeTime(ago(365 * 86_400), now)).toBe('last year');
    expect(formatRelativeTime(ago(364 * 86_400), now)).toBe('12 months ago');
  });

  it('make each formatter once per language and options, not once per date or number', async () => {
    const dates = vi.spyOn(Intl, 'DateTimeFormat');
    const numbers = vi.spyOn(Intl, 'NumberFormat');
    const day = { dateStyle: 'long', timeZone: 'Pacific/Apia' } as const;
    const days = [1, 2, 3].map((d) => formatDate(Date.UTC(2023, 0, d, 12), day));
    expect(days).toEqual(['January 2, 2023', 'January 3, 2023', 'January 4, 2023']);
    expect(dates).toHaveBeenCalledTimes(1);
    // Other options are another formatter, made once as well, and the first one is kept.
    formatDate(date, { dateStyle: 'short', timeZone: 'Pacific/Apia' });
    formatDate(date, { dateStyle: 'short', timeZone: 'Pacific/Apia' });
    expect(formatDate(date, day)).toBe('March 6, 2024');
    expect(dates).toHaveBeenCalledTimes(2);
    const amounts = [1, 2, 3].map((n) => formatNumber(n + 0.25, { minimumFractionDigits: 3 }));
    expect(amounts).toEqual(['1.250', '2.250', '3.250']);
    expect(numbers).toHaveBeenCalledTimes(1);
    // Another language makes its own.
    await loadLanguage('de');
    expect(formatDate(Date.UTC(2023, 0, 1, 12), day)).toBe('2. Januar 2023');
    expect(dates).toHaveBeenCalledTimes(3);
    dates.mockRestore();
    numbers.mockRestore();
  });

  it('formatDate shows a medium date when no format is asked for', () => {
    expect(formatDate(Date.UTC(2024, 2, 5, 12))).toBe('Mar 5, 2024');
  });

  it('formatMoney formats a currency, and falls back for an unknown code', () => {
    expect(formatMoney(12.5, 'EUR')).toBe(new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' }).format(12.5));
    expect(formatMoney(12.5, 'NOT-A-CODE')).toBe('12.5 NOT-A-CODE');
  });
});
