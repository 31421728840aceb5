/** The last changes of every store, newest last, for debugging. */
export interface StateChange {
  store: string;
  action: string;
  state: unknown;
  at: number;
}

export const HISTORY_MAX_AGE = 10;
const entries: StateChange[] = [];

export function recordChange(store: string, action: string, state: unknown): void {
  entries.push({ store, action, state, at: Date.now() });
  // Stryker disable next-line EqualityOperator: at exactly the maximum the splice would remove nothing
  if (entries.length > HISTORY_MAX_AGE) entries.splice(0, entries.length - HISTORY_MAX_AGE);
}

export function stateHistory(): readonly StateChange[] {
  return entries.slice();
}

export function clearStateHistory(): void {
  entries.length = 0;
}
