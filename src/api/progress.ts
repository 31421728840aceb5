/** One step of a transfer, as the progress transport reports it. */
export type TransferEvent =
  | { type: 'sent' }
  | { type: 'upload'; loaded: number; total: number }
  | { type: 'download'; loaded: number; total: number };

export type ProgressListener = (event: TransferEvent) => void;
