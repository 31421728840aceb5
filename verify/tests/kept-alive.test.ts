/**
 * A kept-alive connection the server closes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Target } from '../target.ts';

describe('verify: a kept-alive connection the server closes', () => {
  /** How the server treats a request, by its order on its connection (1 = the connection's first). */
  type Treatment = (req: IncomingMessage, res: ServerResponse, nth: number) => boolean;
  let server: Server;
  let base = '';
  /** Every request that arrived: method, path and its place on its connection. */
  const seen: string[] = [];
  let treat: Treatment = () => false;

  beforeAll(async () => {
    const perSocket = new WeakMap<object, number>();
    server = createServer((req, res) => {
      const nth = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, nth);
      seen.push(`${req.method} ${req.url} #${nth}`);
      if (treat(req, res, nth)) return;
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"1"}'));
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  async function twoRequests(treatment: Treatment) {
    seen.length = 0;
    treat = treatment;
    const target = new Target({ baseUrl: `${base}/api` });
    try {
      const first = await target.send(null, { method: 'GET', url: `${base}/api/first` });
      const body = new TextEncoder().encode('{"name":"x"}');
      const second = await target.send(null, {
        method: 'POST',
        url: `${base}/api/second`,
        headers: new Headers({ 'content-type': 'application/json' }),
        body,
        sent: { kind: 'bytes', bytes: body, chunked: false },
      });
      return { first, second, resends: target.resends, sent: target.sent };
    } finally {
      target.close();
    }
  }

  it('sends a request again, once, on a new connection when the reused one is closed before any byte of an answer', async () => {
    let closed = false;
    const run = await twoRequests((req, _res, nth) => {
      // The connection's idle timeout strikes as the second request arrives: it is never read.
      if (nth < 2 || closed) return false;
      closed = true;
      req.socket.destroy();
      return true;
    });
    expect(run.first.response?.status).toBe(201);
    expect(run.second.error).toBeUndefined();
    expect(run.second.response?.status).toBe(201);
    expect(seen).toEqual(['GET /api/first #1', 'POST /api/second #2', 'POST /api/second #1']);
    expect(run.resends).toBe(1);
    expect(run.sent).toBe(2);
  });

  it('does not send again what was reset on a new connection (the server may have processed it)', async () => {
    seen.length = 0;
    treat = (req) => {
      req.socket.destroy();
      return true;
    };
    const target = new Target({ baseUrl: `${base}/api` });
    try {
      const only = await target.send(null, { method: 'DELETE', url: `${base}/api/one` });
      expect(only.response).toBeNull();
      expect(only.error).toMatch(/ECONNRESET/);
      expect(seen).toEqual(['DELETE /api/one #1']);
      expect(target.resends).toBe(0);
    } finally {
      target.close();
    }
  });

  it('does not send again what was cut off after part of its answer', async () => {
    const run = await twoRequests((req, _res, nth) => {
      if (nth < 2) return false;
      req.socket.end('HTTP/1.1 201 Created\r\ncontent-type: app');
      return true;
    });
    expect(run.second.response).toBeNull();
    expect(seen).toEqual(['GET /api/first #1', 'POST /api/second #2']);
    expect(run.resends).toBe(0);
  });
});
