import { addEnglish } from './index';

/**
 * The profile card's words in English: they load with the card (home shows it to a member with a
 * profile, after the first screen). Every other language keeps these keys in its one catalogue.
 */
export const enProfileCard = {
  'profile.memberSince': 'Member since {date}',
  'profile.preferredLanguage': 'Preferred language: {language}',
  'profile.interestsNone': 'No interests listed.',
} as const;

addEnglish(enProfileCard);
