/**
 * What the bench has started and must close when it is stopped part way (SIGINT from a terminal,
 * SIGTERM from CI or a process manager): headless browsers, servers, child processes. Chrome as
 * chrome-launcher starts it runs in a process group of its own, so a bench that just exited would
 * leave it running.
 */

type Close = () => unknown;

const open = new Set<Close>();

/** Registers what closes a thing just started; the function returned forgets it once closed normally. */
export function track(close: Close): () => void {
  open.add(close);
  return () => {
    open.delete(close);
  };
}

/** How many things are open now (for the tests). */
export function openCount(): number {
  return open.size;
}

/** Closes everything still open, each at most `timeoutMs`, whatever the others do. */
export async function closeAll(timeoutMs = 5000): Promise<void> {
  const closing = [...open];
  open.clear();
  await Promise.allSettled(
    closing.map(
      (close) =>
        new Promise<void>((done) => {
          const timer = setTimeout(done, timeoutMs);
          Promise.resolve()
            .then(close)
            .catch(() => undefined)
            .finally(() => {
              clearTimeout(timer);
              done();
            });
        }),
    ),
  );
}

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

let stopping = false;

/**
 * Whether a signal is being handled: what the measures do meanwhile (a page whose browser was just
 * closed rejects) is no longer the bench's outcome; the signal's exit code is.
 */
export function isStopping(): boolean {
  return stopping;
}

/**
 * On SIGINT or SIGTERM: close what is open, then exit with the signal's conventional code (128 +
 * its number). A second signal while closing exits at once.
 */
export function closeOnSignals(log: (line: string) => void = (line) => console.error(line)): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(EXIT_CODES[signal]);
      stopping = true;
      log(`\nbench: ${signal}: closing the ${open.size} browser(s), server(s) and process(es) it started`);
      void closeAll().then(() => process.exit(EXIT_CODES[signal]));
    });
  }
}
