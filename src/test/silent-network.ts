import { vi } from 'vitest';

/**
 * A network that never answers, as a slow one would not yet: for tests of a screen whose
 * subject is not its data. Without it happy-dom sends the request to its own origin
 * (127.0.0.1:3000), where nothing listens, and the refusal is printed in the middle of the run.
 */
export function stubSilentNetwork(): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => undefined)),
  );
}
