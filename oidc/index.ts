/**
 * The identity provider under /oidc: OpenID Connect (authorization code + PKCE) for the seeded
 * members, with its sign-in pages, and a way for tests and scripts to sign in without a browser.
 *
 * May import: oidc-provider and its own files; nothing else of the repository.
 */
export { ACCOUNTS } from './accounts.ts';
export type { ClaimChanges } from './crafted-token.ts';
/** The sign-in pages' words in each language, for the suites that read the pages in them. */
export { PAGE_MESSAGES } from './messages.ts';
export { OIDC_PREFIX } from './paths.ts';
export {
  createEmbeddedProvider,
  type EmbeddedProvider,
  type IdentityProviderOptions,
} from './provider.ts';
export { refresh, revokeToken, signInAs, SignInError, type Tokens } from './sign-in-flow.ts';
