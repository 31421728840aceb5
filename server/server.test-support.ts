/**
 * What the tests of the server share: each test's servers on free ports and its own folder, both
 * gone after it, and ways to reach a server below fetch (one raw exchange, a large body in pieces).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';
import type { Authenticate } from '../mock-api/index.ts';
import { type RunningServer, type ServerOptions, startServer } from './server.ts';

/** The largest x-max-body-bytes of openapi.yaml (a profile with its avatar). */
export const MAX_BODY = 2_162_688;

/** The running test's folder, made before it and removed after it (see cleanAfterEachTest). */
export let work: string;
/** The servers the running test started, closed after it. */
export const running: RunningServer[] = [];

/** Gives each test of the file it is called in its folder, and closes its servers and mocks after it. */
export function cleanAfterEachTest(): void {
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'circle-server-unit-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
    vi.restoreAllMocks();
    rmSync(work, { recursive: true, force: true });
  });
}

export const start = async (options: ServerOptions = {}) => {
  const server = await startServer({ port: 0, delayMs: 0, distDir: null, ...options });
  running.push(server);
  return server;
};
export const file = (name: string, content: unknown) => {
  const path = join(work, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
export const portOf = (server: RunningServer) => Number(new URL(server.url).port);
/** Any request is the admin's, who may write every collection: for tests of what happens to a change, not of who may make it. */
export const asAdmin: Authenticate = async () => ({ subject: 'admin', roles: ['member', 'admin'] });
export const ADMIN = { authorization: 'Bearer admin' };

/** One raw HTTP exchange on its own connection: what comes back before the server closes it. */
export const raw = (server: RunningServer, text: string) =>
  new Promise<string>((done, fail) => {
    const socket = connect(portOf(server), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => done(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', fail);
    socket.end(text);
  });

export interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
/** POST of `size` bytes in chunks of at most 1 MiB, with or without a Content-Length. */
export const post = (server: RunningServer, path: string, size: number, declared: boolean, extra: Record<string, string> = {}) =>
  new Promise<Sent>((done, fail) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: portOf(server),
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...extra, ...(declared ? { 'content-length': String(size) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', fail);
    const block = Buffer.alloc(1024 * 1024, 0x20);
    let left = size;
    const pump = () => {
      while (left > 0) {
        const part = block.subarray(0, Math.min(left, block.length));
        left -= part.length;
        if (!req.write(part)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
