/**
 * The member's session (session.ts), loaded on demand: to sign in, to come back from the provider,
 * to restore the session at start, to sign out. Loading it hands the API's requests the session's
 * tokens (keepApiTokens): from then on they are renewed before they expire, and once more when the
 * API refuses one.
 */
export const loadSession = () =>
  import('./session').then((model) => {
    model.keepApiTokens();
    return model;
  });
