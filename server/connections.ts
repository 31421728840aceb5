/** A share of the server's connections per client address: one client cannot take every connection. */
import type { Server } from 'node:http';

/** Closes at once a connection past `perClient` open ones from the same address. */
export function limitConnectionsPerClient(server: Server, perClient: number): void {
  // Open connections per client address. A connection past the server's own limit never gets here
  // (Node closes it first), so only accepted ones are counted.
  const clients = new Map<string, number>();
  server.on('connection', (socket) => {
    const client = socket.remoteAddress ?? '';
    const open = (clients.get(client) ?? 0) + 1;
    if (open > perClient) {
      socket.destroy();
      return;
    }
    clients.set(client, open);
    socket.once('close', () => {
      const left = clients.get(client)! - 1;
      if (left === 0) clients.delete(client);
      else clients.set(client, left);
    });
  });
}
