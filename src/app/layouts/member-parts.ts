/**
 * The parts of the shell only a signed-in member sees, in one chunk apart from the first load: the
 * account menu (with the avatar and the top bar's read of the profile) and the admin's collections.
 */
export { AccountMenu } from './AccountMenu';
export { AdminNav } from './AdminNav';
