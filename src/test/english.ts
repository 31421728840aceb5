import { en, type Messages } from '../i18n/en';
import { ENGLISH_PARTS } from '../i18n/parts';

export { ENGLISH_PARTS };

/**
 * The whole English catalogue, for the checks that read it whole (the catalogues' tests, the
 * language e2e suite): the first screens' words and every part of src/i18n/parts.ts. The app takes
 * each part with the code that says its words.
 */
export const ENGLISH: Messages = Object.assign({}, en, ...Object.values(ENGLISH_PARTS));
