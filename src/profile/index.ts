/**
 * The member's profile, one slice: its screen, the model (what the server has, what the member is
 * typing, a save sent at once or kept on the device until the network is back, a save refused
 * because the profile changed elsewhere), and its requests. The rest of the app uses it through
 * this entry only; the service worker alone takes the outbox's record (pending-save.ts) itself, as
 * it is built apart from the page.
 *
 * What the first screen shows (the profile held, its read, the member's name) is exported as it
 * is; everything else loads on demand through the functions below, so the first load does not carry
 * the workflow. A save and a sign-in, file by file: docs/architecture.md.
 */
export { fetchProfile, profile, profileLoading, readProfile, resetProfileState } from './store';
export { memberName } from './member-name';
export type { Profile, ProfileInput, ProfilePatch } from './requests';

// The parts that load on demand, each with its code: the profile screen (the form and what changes
// the profile come with it), the outbox's watcher at start, and what a sign-out clears (forget.ts).
export const loadProfileScreen = () => import('./ProfileScreen');
export const loadOutboxWatch = () => import('./outbox-watch');
export const loadProfileForget = () => import('./forget');
