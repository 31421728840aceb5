/**
 * The curl lines verify prints for each failure, run through a real shell against a server that records what arrives.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '../../openapi-kit/node.ts';
import { headerVariable, perlBytes, shellQuote, toCurl } from '../curl.ts';
import type { SentRequest } from '../exchange.ts';
import { Target } from '../target.ts';

interface Arrived {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('verify: curl lines', () => {
  let server: Server;
  let base = '';
  const arrived: Arrived[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        arrived.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  /** Runs a curl line in sh; what the server received. */
  async function viaShell(request: SentRequest, env: Record<string, string> = {}): Promise<Arrived> {
    arrived.length = 0;
    await new Promise<void>((done, fail) =>
      execFile('sh', ['-c', toCurl(request)], { env: { ...process.env, ...env } }, (error, _stdout, stderr) =>
        error ? fail(new Error(`${error.message}\n${stderr}`)) : done(),
      ),
    );
    expect(arrived).toHaveLength(1);
    return arrived[0]!;
  }

  it('quotes for a POSIX shell: plain, single quotes, control characters', () => {
    expect(shellQuote('http://h/api/x')).toBe('http://h/api/x');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('a\tb')).toBe("$'a\\x09b'");
    expect(shellQuote('')).toBe("''");
  });

  it('writes bytes with runs as a Perl expression', () => {
    expect(perlBytes(Uint8Array.of(0x7b, ...new Array<number>(20).fill(0x20), 0x7d))).toBe(
      'pack("H*","7b"), "\\x20" x 20, pack("H*","7d")',
    );
  });

  it('a JSON body with quotes, non-ASCII and a header arrives byte for byte', async () => {
    const text = `{"entity":"O'Brien & Sons \\"Ltd\\"","note":"שלום 😀 $HOME \`id\`"}`;
    const bytes = new TextEncoder().encode(text);
    const got = await viaShell({
      method: 'PUT',
      url: `${base}/api/symbols/1?x=a%20b`,
      headers: [['content-type', 'application/json']],
      injected: [],
      body: { kind: 'bytes', bytes, chunked: false },
    });
    expect(got.method).toBe('PUT');
    expect(got.url).toBe('/api/symbols/1?x=a%20b');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.body.toString('utf8')).toBe(text);
  });

  it('a body with NUL bytes and a 70 KB run goes through perl, chunked when it was', async () => {
    const bytes = new Uint8Array([0x7b, 0x00, 0xff, ...new Array<number>(70_000).fill(0x20), 0x7d]);
    const got = await viaShell({
      method: 'POST',
      url: `${base}/api/symbols`,
      headers: [['content-type', 'application/json']],
      injected: [],
      body: { kind: 'bytes', bytes, chunked: true },
    });
    expect(got.headers['transfer-encoding']).toBe('chunked');
    expect(new Uint8Array(got.body)).toEqual(bytes);
  });

  it('a multipart form: text fields as written (even "@x" and ";type="), a binary file with its type and name', async () => {
    const png = makePng(8);
    const got = await viaShell({
      method: 'POST',
      url: `${base}/api/user/profile`,
      headers: [],
      injected: [],
      body: {
        kind: 'form',
        chunked: false,
        parts: [
          { name: 'displayName', value: "@/etc/passwd;type=x O'Neil" },
          { name: 'interests', value: 'a,b' },
          { name: 'avatar', file: png, type: 'image/png', filename: 'a.png' },
        ],
      },
    });
    const form = await new Response(new Uint8Array(got.body), {
      headers: { 'content-type': String(got.headers['content-type']) },
    }).formData();
    expect(form.get('displayName')).toBe("@/etc/passwd;type=x O'Neil");
    expect(form.get('interests')).toBe('a,b');
    const file = form.get('avatar') as File;
    expect(file.type).toBe('image/png');
    expect(file.name).toBe('a.png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
  });

  it('a large form, sent in slices and chunked, arrives whole and with the boundary its bytes use', async () => {
    const target = new Target({ baseUrl: `${base}/api`, headers: [['X-Tenant', 't1']] });
    const big = new Uint8Array(600 * 1024).fill(7);
    for (const stream of [false, true]) {
      arrived.length = 0;
      const form = new FormData();
      form.append('displayName', 'Ada');
      form.append('avatar', new Blob([big], { type: 'image/png' }), 'big.png');
      const exchange = await target.send(null, {
        method: 'PATCH',
        url: `${base}/api/user/profile/1`,
        body: form,
        sent: { kind: 'form', parts: [{ name: 'avatar', file: big, type: 'image/png', filename: 'big.png' }], chunked: stream },
        stream,
      });
      expect(exchange.response?.status).toBe(204);
      const got = arrived[0]!;
      expect(got.headers['x-tenant']).toBe('t1');
      expect(got.headers['transfer-encoding'] === 'chunked').toBe(stream);
      const parsed = await new Response(new Uint8Array(got.body), {
        headers: { 'content-type': String(got.headers['content-type']) },
      }).formData();
      expect(parsed.get('displayName')).toBe('Ada');
      expect(new Uint8Array(await (parsed.get('avatar') as File).arrayBuffer())).toEqual(big);
    }
  });

  it('a header given with --header is read from an environment variable, never printed', async () => {
    const request: SentRequest = {
      method: 'GET',
      url: `${base}/api/accounts`,
      headers: [],
      injected: ['Authorization'],
      body: { kind: 'none' },
    };
    expect(toCurl(request)).not.toContain('secret');
    expect(toCurl(request)).toContain(`$${headerVariable('Authorization')}`);
    const got = await viaShell(request, { VERIFY_AUTHORIZATION: 'Bearer secret-token' });
    expect(got.headers.authorization).toBe('Bearer secret-token');
  });

  it("the other member's headers (--other-header) are read from $VERIFY_OTHER_<NAME>", async () => {
    const request: SentRequest = {
      method: 'GET',
      url: `${base}/api/accounts`,
      headers: [],
      injected: ['Authorization'],
      credentials: 'other',
      body: { kind: 'none' },
    };
    expect(toCurl(request)).toContain('"Authorization: $VERIFY_OTHER_AUTHORIZATION"');
    const got = await viaShell(request, { VERIFY_AUTHORIZATION: 'Bearer first', VERIFY_OTHER_AUTHORIZATION: 'Bearer second' });
    expect(got.headers.authorization).toBe('Bearer second');
  });

  it('a credential sent misplaced on purpose is rebuilt around its variable, the secret still unprinted', async () => {
    for (const [before, after] of [
      ['x', ''],
      ['', ' verify'],
      ['$`"\\', 'A'],
    ]) {
      const request: SentRequest = {
        method: 'GET',
        url: `${base}/api/accounts`,
        headers: [],
        injected: ['Authorization'],
        wrapped: { name: 'authorization', before: before!, after: after! },
        body: { kind: 'none' },
      };
      expect(toCurl(request)).not.toContain('secret');
      const got = await viaShell(request, { VERIFY_AUTHORIZATION: 'Bearer secret-token' });
      expect(got.headers.authorization).toBe(`${before}Bearer secret-token${after}`);
    }
  });

  it('a credential with its space widened (Bearer  <token>) is rebuilt from its variable on both sides of its first space', async () => {
    const request: SentRequest = {
      method: 'GET',
      url: `${base}/api/accounts`,
      headers: [],
      injected: ['Authorization'],
      wrapped: { name: 'authorization', before: '', after: '', gap: '  ' },
      body: { kind: 'none' },
    };
    expect(toCurl(request)).not.toContain('secret');
    const got = await viaShell(request, { VERIFY_AUTHORIZATION: 'Bearer secret-token' });
    expect(got.headers.authorization).toBe('Bearer  secret-token');
  });

  it('a credential the server must refuse (--refused-header N) is read from $VERIFY_REFUSED_N_<NAME>', async () => {
    const request: SentRequest = {
      method: 'GET',
      url: `${base}/api/accounts`,
      headers: [],
      injected: ['Authorization'],
      credentials: 'refused 2',
      body: { kind: 'none' },
    };
    expect(toCurl(request)).toContain('"Authorization: $VERIFY_REFUSED_2_AUTHORIZATION"');
    const got = await viaShell(request, { VERIFY_AUTHORIZATION: 'Bearer member', VERIFY_REFUSED_2_AUTHORIZATION: 'Bearer revoked' });
    expect(got.headers.authorization).toBe('Bearer revoked');
  });

  it("the admin's headers (--admin-header) are read from $VERIFY_ADMIN_<NAME>", async () => {
    const request: SentRequest = {
      method: 'DELETE',
      url: `${base}/api/accounts/1`,
      headers: [],
      injected: ['Authorization'],
      credentials: 'admin',
      body: { kind: 'none' },
    };
    expect(toCurl(request)).toContain('"Authorization: $VERIFY_ADMIN_AUTHORIZATION"');
    const got = await viaShell(request, { VERIFY_AUTHORIZATION: 'Bearer member', VERIFY_ADMIN_AUTHORIZATION: 'Bearer admin' });
    expect(got.headers.authorization).toBe('Bearer admin');
  });
});
