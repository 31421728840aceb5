import { addEnglish } from './index';

/**
 * The profile screen's words in English: they load with the screen (the form, its fields, the save and
 * its progress), not with the first screen, whose bytes are counted.
 * Every other language keeps these keys in its one catalogue (loaded when chosen).
 */
export const enProfile = {
  'profile.title': 'Your profile',
  'profile.none': 'You have no profile yet.',
  'profile.createTitle': 'Create your profile',
  'profile.editTitle': 'Edit your profile',
  'profile.create': 'Create profile',
  'profile.save': 'Save changes',
  'profile.delete': 'Delete profile',
  'profile.deleteConfirmTitle': 'Delete your profile?',
  'profile.deleteConfirmBody': 'Your profile and avatar will be removed. This cannot be undone.',
  'profile.deleted': 'Your profile was deleted.',
  'profile.created': 'Your profile was created.',
  'profile.saved': 'Your changes were saved.',
  'profile.draftRestored': 'Your unsaved changes were restored.',
  'profile.discardDraft': 'Discard changes',
  'profile.startOver': 'Start over',
  'profile.avatarChoose': 'Choose an image',
  'profile.avatarForget': 'Remove the chosen image',
  'profile.avatarChosen': 'The image chosen, not saved yet',
  'profile.pendingSave': 'Saved on this device. It will be sent when you are back online.',
  'profile.saveFailed': 'Your changes were not saved: {message}. The form keeps what you typed.',
  'profile.uploading': 'Upload progress',
  'profile.cancelUpload': 'Cancel upload',
  'profile.progress.sent': 'Uploading Files',
  'profile.progress.upload': 'Files are {percent}% uploaded',
  'profile.progress.download': 'Files are {percent}% downloaded',
  'profile.progress.unknown': 'Something went wrong',
  'profile.deleteChanged':
    'Your profile was changed on another device after you opened it. The current version is now shown. Delete it anyway?',
  'field.displayName': 'Display name',
  'field.displayName.hint': '2 to 50 characters.',
  'field.username': 'Username',
  'field.username.hint': 'Lower-case letters, digits and _, 3 to 20 characters.',
  'field.email': 'Email',
  'field.bio': 'About you',
  'field.bio.hint': 'At most 280 characters.',
  'field.language': 'Preferred language',
  'field.language.hint': 'Kept with your profile. The app’s own language is chosen in Settings.',
  'field.interests.hint': 'Separate with commas, at most 10.',
  'field.avatar': 'Avatar',
  'field.avatar.hint': 'PNG, JPEG or WebP, at most 2 MB. You can also drop an image here.',
} as const;

addEnglish(enProfile);
