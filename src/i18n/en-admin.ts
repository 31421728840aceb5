/**
 * The admin screens' words in English: they load with those screens, which only admins open.
 * Every other language keeps these keys in its one catalogue (loaded when chosen).
 */
export const enAdmin = {
  'admin.title': 'Admin',
  'admin.intro': 'Create, edit and delete the records of each collection. The backend checks every change.',
  'admin.collection': 'Collection: {name}',
  'admin.new': 'New record',
  'admin.full': 'This collection is full: it holds at most {max} records. Delete one to add another.',
  'admin.editRecord': 'Edit record {id}',
  'admin.newRecord': 'New record in {name}',
  'admin.yes': 'Yes',
  'admin.no': 'No',
  'admin.hint.format': 'Format: {pattern}',
  'admin.hint.range': 'From {min} to {max}.',
  'admin.hint.maxLength': 'At most {max} characters.',
  'admin.actions': 'Actions',
  'admin.empty': 'This collection is empty. Add its first record with New record.',
  'admin.deleteConfirm': 'Delete record {id}?',
  'admin.saved': 'Record {id} saved.',
  'admin.deletedRecord': 'Record {id} deleted.',
  'admin.error': 'The backend answered: {message}',
  'admin.reset': 'Put back the sample data',
  'admin.resetDone': 'Every collection holds its sample data again.',
  'admin.needsAdmin.title': 'This page is for admins',
  'admin.needsAdmin.body':
    'Only an admin can change the collections every member shares. You are signed in as {name}, a member: ask an admin if a record needs changing.',
  'admin.needsAdmin.home': 'Back to home',
} as const;
