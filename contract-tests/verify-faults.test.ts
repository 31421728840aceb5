/**
 * The fault table, first part: verify through the pass-through proxy, and every other fault of the
 * table (support/fault-table.ts). The rest is verify-faults-2.test.ts, in another worker.
 */
import { faultTable } from './support/fault-table.ts';

faultTable(0);
