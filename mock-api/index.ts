/**
 * The mock API: the reference semantics of openapi.yaml, as MSW handlers over one @msw/data
 * database, the same in Node (server) and in the dev server's browser (./browser.ts).
 *
 * May import: openapi-kit's index.ts (the spec), the API's generated types (src/index.ts), its own files.
 * Used through this file only; ./browser.ts is the dev server's own start (it needs a bundler).
 */
export { rejectAll, unauthorized, type Authenticate, type Identity } from './auth.ts';
export { MAX_AVATAR_BYTES } from './body.ts';
export { createContract, type Contract, type OpenApiDocument, type StandardSchema } from './contract.ts';
export { avatarRules, avatarSchema, type Avatar } from './avatar.ts';
export {
  COLLECTION_NAMES,
  COLLECTIONS,
  createDatabase,
  SEED,
  type CollectionName,
  type DataSet,
  type Database,
  type OwnedProfile,
  type Profile,
  type Records,
} from './db.ts';
export { ConfigError, errorBody, httpError } from './errors.ts';
export { CONTROL_PREFIX } from './handlers/control.ts';
export { createJournal, type Exchange, type Journal } from './journal.ts';
export { discoveredTokenAuthenticator, jwtAuthenticator, tokenAuthenticator, type TokenIssuer } from './jwt.ts';
export { createMockBackend, DEFAULT_JOURNAL_SIZE, type MockBackend, type MockOptions } from './mock.ts';
export { MAX_DELAY_MS, parseScenario, type Scenario } from './scenario.ts';
export { createRateLimiter, SUBSCRIPTION_CREATES, type RateLimitOptions, type RateLimiter } from './rate.ts';
export { CLIENT_HEADER } from './handlers/subscriptions.ts';
export { refuseCrossSite } from './handlers/gate.ts';
export { ifMatchAllows } from './handlers/profile.ts';
