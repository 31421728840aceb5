/**
 * testkit: what the suites (contract-tests, the app's contract tests, e2e, verify's) and bench
 * share: free ports, a build's size figures, a build with only the UI configuration, the mock
 * server, verify and Prism as processes, sample records and test identities, a member's session
 * stored in a browser.
 *
 * May import: mock-api, oidc (through their index.ts), the app's types (src/index.ts); never imported by a product.
 */
export { bundleFigures, REACT_CHUNK, type BundleFigures } from './bundle-figures.ts';
export { freePort } from './ports.ts';
export { ROOT, run, runServer, startServerProcess, tinyBuild, type Finished } from './mock-process.ts';
export { UI_CONFIG, uiConfigBuild } from './ui-config-build.ts';
export { runVerifyProcess } from './verify-process.ts';
export { startPrismMock, startPrismProxy, type PrismProcess } from './prism.ts';
export { REPLACEMENT, SAMPLE_INPUT, SAMPLE_PROFILE } from './samples.ts';
export { bearerOf, testAuthenticate } from './test-identities.ts';
export { routesFor } from './routes.ts';
export { claimsOf, sessionOf, storeSession } from './stored-session.ts';
/** Real tokens from the embedded provider of a running mock server: who writes what is an admin's (ada). */
export { signInAs, type Tokens } from '../oidc/index.ts';
