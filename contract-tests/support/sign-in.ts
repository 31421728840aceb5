/** Real tokens from the embedded provider of a running mock server (see mocks/oidc/sign-in-flow.ts). */
export { refresh, signInAs, SignInError, type Tokens } from '../../mocks/oidc/index.ts';
