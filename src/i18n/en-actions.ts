import { addEnglish } from './index';

/**
 * The words of the actions on a record, the member's profile or an admin's (edit, save, delete,
 * cancel), in English: they load with the screens that offer them, not with the first one. Every
 * other language keeps these keys in its one catalogue.
 */
export const enActions = {
  'common.cancel': 'Cancel',
  'common.save': 'Save',
  'common.delete': 'Delete',
  'common.edit': 'Edit',
} as const;

addEnglish(enActions);
