import type { Profile, ProfileInput } from '../profile';

/** A saved profile as the API returns it: the one the profile tests start from. */
export const PROFILE: Profile = {
  id: 'p-1',
  displayName: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.org',
  bio: 'Analyst.',
  interests: ['maths'],
  language: 'en',
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};

/** Her fields as the save that creates the profile sends them. */
export const PROFILE_INPUT: ProfileInput = {
  displayName: PROFILE.displayName,
  username: PROFILE.username,
  email: PROFILE.email,
  interests: PROFILE.interests,
};
