/**
 * The words in English of what only a signed-in member sees: the account menu, the avatar, the
 * profile's card, the admin's collections, and the buttons of the screens that change data (edit,
 * delete, save, cancel). They load with that code, which a visitor never runs (the shell's member
 * parts, src/app/layouts/member-parts.ts, and the screens that take them). Every other language
 * keeps these keys in its one catalogue.
 */
export const enMember = {
  'nav.signOutEverywhere': 'Sign out everywhere',
  'nav.account': 'Account: {name}',
  'nav.yourProfile': 'Your profile',
  'nav.adminMenu': 'Collections',
  'profile.avatarAlt': 'Avatar of {name}',
  'profile.noAvatar': 'No avatar',
  'profile.memberSince': 'Member since {date}',
  'profile.preferredLanguage': 'Preferred language: {language}',
  'profile.interestsNone': 'No interests listed.',
  'common.cancel': 'Cancel',
  'common.save': 'Save',
  'common.delete': 'Delete',
  'common.edit': 'Edit',
} as const;
