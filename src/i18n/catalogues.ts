import type { Language } from '../config/languages.ts';
import { de } from './de.ts';
import { en, type Messages } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { ENGLISH_PARTS } from './parts.ts';
import { zhHans } from './zh-Hans.ts';

/**
 * Every language's words whole, for the checks that read them so: the catalogues' tests, and the
 * browser suites through src/index.ts (the words the pages must show). English is the first
 * screens' words and every part of ./parts.ts. The app never imports this: it takes each part with
 * the code that says its words, and a language when it is chosen. Plain modules, which Node loads
 * as they are.
 */
export const CATALOGUES: Readonly<Record<Language, Messages>> = {
  en: Object.assign({}, en, ...Object.values(ENGLISH_PARTS)),
  es,
  de,
  fr,
  'zh-Hans': zhHans,
};
