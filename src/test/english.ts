import { en } from '../i18n/en';
import { enAdmin } from '../i18n/en-admin';
import { enConflict } from '../i18n/en-conflict';
import { enDashboard } from '../i18n/en-dashboard';
import { enNotFound } from '../i18n/en-not-found';
import { enActions } from '../i18n/en-actions';
import { enProfileCard } from '../i18n/en-profile-card';
import { enForms } from '../i18n/en-forms';
import { enProfile } from '../i18n/en-profile';
import { enSettings } from '../i18n/en-settings';
import { enSignIn } from '../i18n/en-sign-in';
import type { Messages } from '../i18n/en';

/**
 * The parts of the English catalogue, for the checks that read it whole (the catalogues' tests, the
 * language e2e suite): the app loads each part with the screen that shows it. A part left out here
 * fails the catalogues' test, as every other language then has keys English lacks.
 */
export const ENGLISH_PARTS = [
  en,
  enSettings,
  enDashboard,
  enNotFound,
  enProfileCard,
  enActions,
  enProfile,
  enForms,
  enConflict,
  enAdmin,
  enSignIn,
] as const;

/** The whole English catalogue: its parts together. */
export const ENGLISH: Messages = Object.assign({}, ...ENGLISH_PARTS);
