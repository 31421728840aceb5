// @vitest-environment node
/**
 * Slow and many clients: the time a client has for its headers, the server's connections, and each
 * client address's share of them.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cleanAfterEachTest, portOf, start } from './server.test-support.ts';
import type { RunningServer } from './server.ts';

cleanAfterEachTest();

describe('slow and many clients', () => {
  /** A connection that sends `text` and stays open: resolves with what came back once the server ends it, and when. */
  const openConnection = (server: RunningServer, text: string) => {
    const socket = connect(portOf(server), '127.0.0.1');
    const opened = Date.now();
    const chunks: Buffer[] = [];
    const ended = new Promise<{ text: string; ms: number }>((done) => {
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => done({ text: Buffer.concat(chunks).toString('latin1'), ms: Date.now() - opened }));
      socket.on('error', () => undefined);
    });
    socket.write(text);
    return { socket, ended };
  };

  it('a client that does not finish its headers in time is answered 408 and cut off', async () => {
    const server = await start({ headersTimeoutMs: 300 });
    const { ended } = openConnection(server, 'GET /api/symbols HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const { text, ms } = await ended;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(3_000);
  });

  it('by default gives a client 10 s for its headers and holds at most 256 connections', async () => {
    const server = await start();
    expect(server.server.headersTimeout).toBe(10_000);
    expect(server.server.maxConnections).toBe(256);
  });

  const REQUEST = 'GET /api/symbols HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  /** A kept-alive connection from `from`, resolved once the server has answered a request on it: it is then surely accepted and held. */
  const held = (server: RunningServer, from = '127.0.0.1') =>
    new Promise<Socket>((done, fail) => {
      const socket = connect({ port: portOf(server), host: '127.0.0.1', localAddress: from });
      socket.once('data', () => done(socket));
      socket.once('error', fail);
      socket.write(REQUEST);
    });
  /** What a new connection from `from` gets for a request before it is closed: '' when it is closed unanswered. */
  const refusedOrAnswered = (server: RunningServer, from = '127.0.0.1') =>
    new Promise<string>((done) => {
      const socket = connect({ port: portOf(server), host: '127.0.0.1', localAddress: from });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        socket.destroy();
      });
      socket.on('close', () => done(Buffer.concat(chunks).toString('latin1').split('\r\n', 1)[0]!));
      socket.on('error', () => undefined);
      socket.write(REQUEST);
    });

  it('past its connections, closes a new one at once; once one closes, it answers again', async () => {
    const server = await start({ maxConnections: 2 });
    const open = [await held(server), await held(server)];
    expect(await refusedOrAnswered(server)).toBe('');
    for (const socket of open) socket.destroy();
    await Promise.all(open.map((socket) => new Promise((closed) => (socket.closed ? closed(null) : socket.once('close', closed)))));
    // The server learns of the close a moment later: ask until it answers (each refused attempt is closed at once).
    let status = '';
    while (status === '') status = await refusedOrAnswered(server);
    expect(status).toBe('HTTP/1.1 200 OK');
  });

  it('gives one client address at most its share of the connections (64 by default); another client still gets one', async () => {
    const byDefault = await start();
    const sixtyFour = await Promise.all(Array.from({ length: 64 }, () => held(byDefault)));
    expect(await refusedOrAnswered(byDefault)).toBe('');
    for (const socket of sixtyFour) socket.destroy();
    const server = await start({ maxConnections: 10, maxConnectionsPerClient: 2 });
    const open = [await held(server), await held(server)];
    expect(await refusedOrAnswered(server)).toBe('');
    expect(await refusedOrAnswered(server, '127.0.0.2')).toBe('HTTP/1.1 200 OK');
    open[0]!.destroy();
    let status = '';
    while (status === '') status = await refusedOrAnswered(server);
    expect(status).toBe('HTTP/1.1 200 OK');
    open[1]!.destroy();
  });
});
