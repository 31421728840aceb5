/**
 * The sign-in screens' words in English (the sign-in page and the way back from the provider):
 * they load with those screens. Every other language keeps these keys in its one catalogue.
 */
export const enSignIn = {
  'signIn.intro': 'Sign in with your Circle account.',
  'signIn.issuer': 'You sign in at {issuer}.',
  'signIn.needed': 'Sign in to open the admin screens.',
  'signIn.expired': 'Your session has ended. Sign in again to save; what you typed is kept.',
  'signIn.unreachable': 'The sign-in service cannot be reached. Check your connection and try again.',
  'signIn.cancelled': 'The sign-in was cancelled.',
  'signIn.failed': 'The sign-in could not be completed. Try again.',
  'signIn.completing': 'Signing you in…',
  'signIn.redirecting': 'Opening the sign-in page…',
  'signIn.signedInAs': 'Signed in as {name}.',
} as const;
