import { computed, signal } from '@preact/signals-core';
import { en, type FirstKey, type MessageKey, type Messages, type PartKey } from './en';
import type { Language } from '../config/languages';

export type { FirstKey, MessageKey, PartKey };

/**
 * English as far as it has loaded: the first screens' part, then each part a screen takes
 * (withWords). Its keys are all there by the time the code that reads them runs.
 */
const english: Partial<Messages> = { ...en };

/** Catalogues other than English load on demand; English is always there as the fallback. */
// Stryker disable next-line ObjectLiteral: t() falls back to English when the active catalogue is missing, so an empty start shows the same
const catalogues = signal<Partial<Record<Language, Partial<Messages>>>>({ en: english });

const loaders: Record<Exclude<Language, 'en'>, () => Promise<Messages>> = {
  es: () => import('./es').then((m) => m.es),
  de: () => import('./de').then((m) => m.de),
  fr: () => import('./fr').then((m) => m.fr),
  'zh-Hans': () => import('./zh-Hans').then((m) => m.zhHans),
};

/**
 * Fetches every catalogue without showing it. Once the service worker controls the page it keeps
 * each one fetched (they are left out of the precache, which has no room for them), so that any
 * language can then be chosen offline.
 */
export function prefetchLanguages(): Promise<unknown> {
  return Promise.allSettled(Object.values(loaders).map((load) => load()));
}

/** The language the member chose last; the boot passes each choice in through loadLanguage(). */
// Stryker disable next-line StringLiteral: loadLanguage sets it before reading it; the first value is never compared
let requested: Language = 'en';
/** The language on screen: the last one chosen whose catalogue is in. */
const shown = signal<Language>('en');

/**
 * Makes `lang` the language to show, loading its catalogue first when it is not there yet. The
 * screen keeps the language it shows until then; a later choice wins over one still loading.
 */
export async function loadLanguage(lang: Language): Promise<void> {
  requested = lang;
  // Stryker disable next-line StringLiteral: English is always in the catalogues, so the first test already skips it; this one narrows lang for loaders
  if (!catalogues.value[lang] && lang !== 'en') {
    const messages = await loaders[lang]();
    catalogues.value = { ...catalogues.value, [lang]: messages };
  }
  if (requested === lang) shown.value = lang;
}

/** The language whose catalogue is loaded and shown (the one shown before while another loads). */
export const activeLanguage = computed<Language>(() => shown.value);

const formatters = new Map<string, unknown>();

/**
 * One of Intl's formatters, made once per kind, language and options: making one costs far more than
 * using it (the home screen's notifications, a formatter made per row, spent about 200 ms of main
 * thread at 4× CPU more than with one). A formatter the options make throw is not kept: the next
 * call throws too.
 */
function formatter<T>(kind: string, lang: string, options: object | undefined, make: () => T): T {
  const key = `${kind} ${lang} ${JSON.stringify(options ?? {})}`;
  let made = formatters.get(key) as T | undefined;
  // Stryker disable next-line ConditionalExpression: a cache only: a formatter made again formats alike
  if (made === undefined) {
    made = make();
    formatters.set(key, made);
  }
  return made;
}

/** Fills {name} placeholders and {count, plural, one {…} other {…}} forms. */
export function format(template: string, lang: Language, params: Record<string, string | number> = {}): string {
  const withPlurals = template.replace(/\{(\w+), plural, ((?:\w+ \{[^}]*\}\s*)+)\}/g, (_, name: string, forms: string) => {
    const n = Number(params[name] ?? 0);
    const rules = formatter('plural', lang, undefined, () => new Intl.PluralRules(lang));
    const options = Object.fromEntries([...forms.matchAll(/(\w+) \{([^}]*)\}/g)].map((m) => [m[1], m[2]]));
    const chosen = options[rules.select(n)] ?? options.other ?? '';
    return chosen.replaceAll('#', formatter('number', lang, undefined, () => new Intl.NumberFormat(lang)).format(n));
  });
  return withPlurals.replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}

/** A text the data carries in several languages (`{ en, fr, … }`): the active language's, else the English. */
export function inLanguage(text: Readonly<{ en: string } & Partial<Record<string, string>>>): string {
  return text[activeLanguage.value] ?? text.en;
}

/** The message for `key` in the active language. Reading it in a component subscribes to language changes. */
function say(key: MessageKey, params?: Record<string, string | number>): string {
  const lang = activeLanguage.value;
  const messages = catalogues.value[lang] ?? english;
  // A key built from data (a notification level, say) may be unknown: show the key, never crash.
  return format(messages[key] ?? english[key] ?? String(key), lang, params);
}

/** A word of the first screens in the active language; a screen's own words come with withWords. */
export const t: (key: FirstKey, params?: Record<string, string | number>) => string = say;

/** The keys of any of these parts of English. */
type KeysOf<P> = P extends unknown ? keyof P : never;

/**
 * The `t` of a module that says the words of these parts of English (./parts.ts), as well as the
 * first screens': the parts join English as the module loads, before anything of it renders. A
 * word of a part not taken does not type-check, so a screen cannot show a key for want of its words.
 */
export function withWords<P extends readonly Partial<Messages>[]>(
  ...parts: P
): (key: FirstKey | KeysOf<P[number]>, params?: Record<string, string | number>) => string {
  Object.assign(english, ...parts);
  return say;
}

export function formatDate(value: string | number | Date, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const lang = activeLanguage.value;
  return formatter('date', lang, options, () => new Intl.DateTimeFormat(lang, options)).format(date);
}

const RELATIVE_UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** How long ago (or ahead) `value` is from `now`, in the largest whole unit: "3 days ago", "hier", "5分钟前". */
export function formatRelativeTime(value: string | number | Date, now: number = Date.now()): string {
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '';
  const seconds = (time - now) / 1000;
  const lang = activeLanguage.value;
  const format = formatter('relative', lang, undefined, () => new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }));
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  // Under a minute: "now", or a number of seconds.
  return format.format(Math.abs(seconds) < 10 ? 0 : Math.trunc(seconds), 'second');
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  const lang = activeLanguage.value;
  return formatter('number', lang, options, () => new Intl.NumberFormat(lang, options)).format(value);
}

export function formatMoney(value: number, currency: string): string {
  try {
    return formatNumber(value, { style: 'currency', currency });
  } catch {
    return `${formatNumber(value)} ${currency}`;
  }
}

/**
 * A language's name in the language on screen ("anglais" on a French screen), for text that names
 * one; a picker lists each language by its own name instead (config/languages.ts).
 */
export function languageName(code: string): string {
  try {
    const lang = activeLanguage.value;
    return formatter('language names', lang, undefined, () => new Intl.DisplayNames(lang, { type: 'language' })).of(code) ?? code;
  } catch {
    return code;
  }
}
