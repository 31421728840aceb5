/** The mock backend as a list of MSW handlers over its database: the same code runs in the browser worker and in Node. */
import type { Authenticate } from './auth.ts';
import type { HttpHandler } from 'msw';
import type { Contract } from './contract.ts';
import { createDatabase, SEED, type Database, type DataSet } from './db.ts';
import { createHandlers } from './handlers/index.ts';
import { createJournal, type Journal } from './journal.ts';
import type { Scenario } from './scenario.ts';
import type { RateLimitOptions } from './rate.ts';

export interface MockOptions {
  /** openapi.yaml read once: every record and body is validated against it. */
  contract: Contract;
  /** Delay of every answer, as a slow network would add. */
  delayMs: number;
  /** Where the API lives on the origin. */
  basePath?: string;
  /** Match the API's paths on any origin (the Node server) rather than the page's (the browser). */
  anyOrigin?: boolean;
  /** The data to start with and to reset to; the seed of mock-api/data/ by default. */
  initial?: DataSet;
  /** Answers asked for per operationId (mock-api/scenario.ts). */
  scenario?: Scenario;
  /** How many exchanges GET /__mock/requests lists. */
  journalSize?: number;
  /** Host names besides IP literals and localhost the mock is reached by. */
  trustedHosts?: string[];
  /** Who is calling a secured operation (mock-api/auth.ts); without it every secured call answers 401. */
  authenticate?: Authenticate;
  /** How many push subscriptions one client may store without a bearer token (mock-api/rate.ts). */
  subscriptionCreates?: RateLimitOptions;
}

export interface MockBackend {
  readonly contract: Contract;
  readonly db: Database;
  readonly journal: Journal;
  readonly handlers: HttpHandler[];
  readonly basePath: string;
}

export const DEFAULT_JOURNAL_SIZE = 100;

export async function createMockBackend(options: MockOptions): Promise<MockBackend> {
  const { contract, delayMs, basePath = '/api', anyOrigin = false, scenario = {} } = options;
  const db = await createDatabase(contract, options.initial ?? SEED);
  const journal = createJournal(options.journalSize ?? DEFAULT_JOURNAL_SIZE, (method, pathname) => {
    const op = pathname.startsWith(`${basePath}/`) ? contract.spec.match(method, pathname.slice(basePath.length)) : undefined;
    return new Set(op?.params.filter((p) => p.in === 'query').map((p) => p.name));
  });
  const handlers = createHandlers({
    contract,
    db,
    journal,
    basePath,
    anyOrigin,
    delayMs,
    scenario,
    ...(options.trustedHosts ? { trustedHosts: options.trustedHosts } : {}),
    ...(options.authenticate ? { authenticate: options.authenticate } : {}),
    ...(options.subscriptionCreates ? { subscriptionCreates: options.subscriptionCreates } : {}),
  });
  return { contract, db, journal, handlers, basePath };
}
