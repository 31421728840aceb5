/** One step of a transfer, as the progress transport reports it. */
export type TransferEvent =
  | { type: 'sent' }
  | { type: 'upload'; loaded: number; total: number }
  | { type: 'download'; loaded: number; total: number };

export type ProgressListener = (event: TransferEvent) => void;

/** Whole percent of a transfer, or null when its size is unknown. */
export function percentOf(event: { loaded: number; total: number }): number | null {
  if (!event.total) return null;
  return Math.min(100, Math.round((event.loaded / event.total) * 100));
}
