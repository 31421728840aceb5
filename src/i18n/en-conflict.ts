/**
 * The conflict resolver's words in English: they load with the resolver, at the first conflict.
 * Every other language keeps these keys in its one catalogue (loaded when chosen).
 */
export const enConflict = {
  'profile.conflict.title': 'Your profile changed on another device',
  'profile.conflict.body':
    'It was saved elsewhere after you started editing, so your changes were not saved. Nothing is lost: choose what to keep.',
  'profile.conflict.field': 'Field',
  'profile.conflict.mine': 'On this device',
  'profile.conflict.theirs': 'On the other device',
  'profile.conflict.empty': '(empty)',
  'profile.conflict.avatar': 'Your new avatar is kept with your version and with a merge.',
  'profile.conflict.keepMine': 'Keep my changes',
  'profile.conflict.keepMineHint':
    'Keep my changes saves the fields you changed on this device; the others keep the other device’s version.',
  'profile.conflict.keepMineAllHint': 'Keep my changes saves every field as you have it on this device.',
  'profile.conflict.takeTheirs': 'Use the other device’s version',
  'profile.conflict.merge': 'Merge field by field',
  'profile.conflict.mergeHint': 'For each field, choose the version to keep.',
  'profile.conflict.mineValue': 'This device: {value}',
  'profile.conflict.theirsValue': 'Other device: {value}',
  'profile.conflict.saveMerged': 'Save merged profile',
  'profile.conflict.discarded': 'Your changes were discarded. The other device’s version is shown.',
  'profile.conflict.changedBoth': 'Changed on both: choose one',
  'profile.conflict.changedThere': 'Changed on the other device',
  'profile.conflict.changedHere': 'Changed here',
  'profile.conflict.changed': 'Changed',
  'profile.conflict.versions': 'Both versions',
} as const;
