/** The fault table, second part (support/fault-table.ts): the faults verify-faults.test.ts leaves. */
import { faultTable } from './support/fault-table.ts';

faultTable(1);
