/**
 * The one report of a start that failed: the entry's code, the boot's or the first screen's did
 * not load, or the configuration could not be read. The page keeps its prerendered screen; the
 * console says why. The pre-paint script reports an entry that does not load the same way.
 */
export function reportStartFailure(error: unknown): void {
  console.error('Circle failed to start', error);
}
