/**
 * verify: `npm run verify` checks any server against openapi.yaml (single exchanges and stateful
 * walks, from generated requests), with console, JSON, JUnit and HTML reports, and a fault table
 * of server bugs it must catch. ./cli.ts is the command line.
 *
 * May import: openapi-kit, mock-api, server, oidc (through their index.ts, to run against the embedded mock),
 * its own files; never imported by a product.
 */
export { FAULT_NAMES, FAULTS, startFaultyBackend, type FaultName, type FaultyBackend } from './faults/backend.ts';
export type { Batch, Body, GeneratedRequest, Setup } from './generated-request.ts';
export { RequestGenerator } from './request-generator.ts';
export { RequestJudge, type Verdict } from './request-judge.ts';
export { build, type Built } from './request-wire.ts';
