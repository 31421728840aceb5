/**
 * The mock API: the reference semantics of openapi.yaml, as MSW handlers over one @msw/data
 * database, the same in Node (server) and in the dev server's browser (./browser.ts).
 *
 * May import: openapi-kit's index.ts (the spec), the API's generated types (src/index.ts), its own files.
 * Used through this file only; ./browser.ts is the dev server's own start (it needs a bundler).
 */
export { unauthorized, type Authenticate } from './auth.ts';
export { MAX_AVATAR_BYTES } from './body.ts';
export { createContract, type Contract, type OpenApiDocument } from './contract.ts';
export { avatarRules, avatarSchema, type Avatar } from './avatar.ts';
export {
  COLLECTION_NAMES,
  COLLECTIONS,
  createDatabase,
  SEED,
  type CollectionName,
  type DataSet,
  type OwnedProfile,
  type Profile,
  type Records,
} from './db.ts';
export { ConfigError, errorBody } from './errors.ts';
export { EMPTY_INBOX, type InboxData, type NotificationText } from './inbox.ts';
export { CONTROL_PREFIX } from './handlers/control.ts';
export type { Exchange } from './journal.ts';
export { discoveredTokenAuthenticator, tokenAuthenticator } from './jwt.ts';
export { createMockBackend, type MockBackend } from './mock.ts';
export { MAX_DELAY_MS, parseScenario, type Scenario } from './scenario.ts';
export type { RateLimitOptions } from './rate.ts';
export { CLIENT_HEADER } from './handlers/subscriptions.ts';
export { refuseCrossSite } from './handlers/gate.ts';
export { ifMatchAllows } from './handlers/profile.ts';
