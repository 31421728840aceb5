import { addEnglish } from './index';

/**
 * The conflict resolver's words in English: they load with the resolver, at the first conflict.
 * Every other language keeps these keys in its one catalogue (loaded when chosen).
 */
export const enConflict = {
  'profile.conflict.title': 'Your profile changed on another device',
  'profile.conflict.body':
    'It was saved elsewhere after you started editing, so your changes were not saved. Nothing is lost: choose what to keep.',
  'profile.conflict.field': 'Field',
  'profile.conflict.mine': 'Your version',
  'profile.conflict.theirs': 'Saved version',
  'profile.conflict.empty': '(empty)',
  'profile.conflict.avatar': 'Your new avatar is kept with your version and with a merge.',
  'profile.conflict.keepMine': 'Keep my changes',
  'profile.conflict.keepMineHint': 'Keep my changes saves the fields you changed; the fields you did not change keep the saved version.',
  'profile.conflict.keepMineAllHint': 'Keep my changes saves every field as you have it on this device.',
  'profile.conflict.takeTheirs': 'Take theirs',
  'profile.conflict.merge': 'Merge field by field',
  'profile.conflict.mergeHint': 'For each field, choose the version to keep.',
  'profile.conflict.mineValue': 'Yours: {value}',
  'profile.conflict.theirsValue': 'Saved: {value}',
  'profile.conflict.saveMerged': 'Save merged profile',
  'profile.conflict.discarded': 'Your changes were discarded. The saved version is shown.',
} as const;

addEnglish(enConflict);
