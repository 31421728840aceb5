import { enAdmin } from './en-admin';
import { enConflict } from './en-conflict';
import { enDashboard } from './en-dashboard';
import { enForms } from './en-forms';
import { enInbox } from './en-inbox';
import { enMember } from './en-member';
import { enNotFound } from './en-not-found';
import { enProfile } from './en-profile';
import { enSettings } from './en-settings';
import { enSignIn } from './en-sign-in';
import { enUpdate } from './en-update';

/**
 * The parts of the English catalogue beyond the first screens' words (en.ts), declared once: each
 * loads with the code that says its words, which takes them with withWords (./index.ts), and this
 * list gives the keys every other language must have and the checks their whole English. The app
 * never imports it: that would load every part at once.
 */
export const ENGLISH_PARTS = {
  admin: enAdmin,
  conflict: enConflict,
  dashboard: enDashboard,
  forms: enForms,
  inbox: enInbox,
  member: enMember,
  notFound: enNotFound,
  profile: enProfile,
  settings: enSettings,
  signIn: enSignIn,
  update: enUpdate,
} as const;
