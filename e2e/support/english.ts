import { en } from '../../src/i18n/en';
import { enAdmin } from '../../src/i18n/en-admin';
import { enConflict } from '../../src/i18n/en-conflict';
import { enDashboard } from '../../src/i18n/en-dashboard';
import { enForms } from '../../src/i18n/en-forms';
import { enProfile } from '../../src/i18n/en-profile';
import { enSettings } from '../../src/i18n/en-settings';
import type { Messages } from '../../src/i18n/en';

/** The whole English catalogue: its parts together (the app loads each with the screen that shows it). */
export const ENGLISH: Messages = { ...en, ...enSettings, ...enDashboard, ...enProfile, ...enForms, ...enConflict, ...enAdmin };
