/**
 * The Node web server of `npm start` and `npm run serve`: the built app's files with their
 * headers, the mock API, the identity provider under /oidc, options, persistence and strict mode.
 *
 * May import: mock-api and oidc (through their index.ts), openapi-kit, src (through its
 * index.ts: the route→file table and the built-in configuration), its own files.
 * ./cli.ts is the command line.
 */
export { startServer, type RunningServer, type ServerOptions } from './server.ts';
export { parseOptions, usage, UsageError } from './options.ts';
export { contentSecurityPolicy, securityHeaders } from './security-headers.ts';
export { answerFile, type StaticFile } from './static-files.ts';
export { createExchangeChecker, type ApiExchange } from './strict.ts';
