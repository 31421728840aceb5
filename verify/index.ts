/**
 * verify: `npm run verify` checks any server against openapi.yaml (single exchanges and stateful
 * walks, from generated requests), with console, JSON, JUnit and HTML reports, and a fault table
 * of server bugs it must catch. ./cli.ts is the command line.
 *
 * May import: openapi-kit, mock-api, server, oidc (through their index.ts, to run against the embedded mock),
 * its own files; never imported by a product.
 */
export { EXIT, main, type Io } from './cli.ts';
export { runVerify } from './run.ts';
export { FAULT_NAMES, FAULTS, startFaultyBackend, type FaultName, type FaultyBackend } from './faults/backend.ts';
export {
  build,
  judgeAnswer,
  RequestGenerator,
  RequestJudge,
  type Batch,
  type Body,
  type GeneratedRequest,
  type OperationSpec,
  type Setup,
} from './generated-requests.ts';
