import type { Authenticate } from '../auth.ts';
import type { Contract } from '../contract.ts';
import type { Database } from '../db.ts';
import type { Router } from './route.ts';

/** What every group of handlers is built from. */
export interface MockContext {
  contract: Contract;
  db: Database;
  /** Declares a typed route of openapi.yaml (see route.ts). */
  route: Router['route'];
  /** Where the API lives on the origin (`/api`): Location headers and avatar URLs start with it. */
  basePath: string;
  /** Who is calling (mock-api/auth.ts): the routes of secured operations ask it before they resolve. */
  authenticate: Authenticate;
}
