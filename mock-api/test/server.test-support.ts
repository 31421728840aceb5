import { afterEach, beforeEach } from 'vitest';
import { startServer, type RunningServer, type ServerOptions } from '../../server/index.ts';

export interface Answer {
  status: number;
  headers: Headers;
  /** The body parsed as JSON, the text when it is no JSON, or null when empty. */
  body: unknown;
}

export interface TestServer {
  readonly url: string;
  /** A request to the API (`/api` + path), its answer read whole. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Answer>;
  /** A request to any path of the server. */
  call(path: string, init?: RequestInit & { json?: unknown }): Promise<Answer>;
}

async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = text === '' ? null : text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: the text is the body.
  }
  return { status: response.status, headers: response.headers, body };
}

/**
 * A fresh in-process server for each test of the describe block it is called in (so each test
 * starts from the seed). Fresh per test, not per block: starting one takes some 25 ms, and the
 * handlers are then built while the test runs, where a mutation of how they are built is seen by
 * the test that calls them (built in a beforeAll, it would count as covered by no test).
 */
export function serverPerTest(options: ServerOptions = {}): TestServer {
  let server: RunningServer | undefined;
  beforeEach(async () => {
    server = await startServer({ port: 0, delayMs: 0, distDir: null, ...options });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const running = () => {
    if (!server) throw new Error('The server is not started');
    return server;
  };
  const call = async (path: string, { json, ...init }: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    if (json !== undefined) headers.set('content-type', 'application/json');
    return read(
      await fetch(`${running().url}${path}`, { ...init, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) }),
    );
  };
  return {
    get url() {
      return running().url;
    },
    call,
    api: (path, init) => call(`/api${path}`, init),
  };
}

/** The API's error body, as errors.ts makes it. */
export const error = (status: number, reason: string, message: string) => ({ status, error: reason, message });
