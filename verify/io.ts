/** What the command line of verify writes to, and its exit codes (see docs/verify.md). */

export const EXIT = { conformant: 0, notConformant: 1, couldNotRun: 2 } as const;

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether progress goes to a terminal (an updating line) or a log (occasional lines); null: none. */
  progress: NodeJS.WriteStream | null;
}

/** A one-line reason: the first line of a message, without a stack. */
export const oneLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
