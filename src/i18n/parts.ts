import { enAdmin } from './en-admin.ts';
import { enConflict } from './en-conflict.ts';
import { enDashboard } from './en-dashboard.ts';
import { enForms } from './en-forms.ts';
import { enInbox } from './en-inbox.ts';
import { enMember } from './en-member.ts';
import { enNotFound } from './en-not-found.ts';
import { enProfile } from './en-profile.ts';
import { enSettings } from './en-settings.ts';
import { enSignIn } from './en-sign-in.ts';
import { enUpdate } from './en-update.ts';

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
