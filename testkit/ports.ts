import { createServer } from 'node:net';

/**
 * A TCP port that is free on 127.0.0.1 right now: the OS picks it (port 0) and it is released at
 * once. Another process could take it before the caller binds it; the callers (startPrism) detect
 * that by the child exiting early and retry with a new port.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('The OS gave no TCP port'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}
