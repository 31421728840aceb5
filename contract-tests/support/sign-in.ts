/** Real tokens from the embedded provider of a running mock server (see oidc/sign-in-flow.ts). */
export { refresh, signInAs, SignInError, type Tokens } from '../../oidc/index.ts';
