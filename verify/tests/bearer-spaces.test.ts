/**
 * A bearer token after two spaces (`Bearer  <token>`) is still a bearer credential (RFC 6750:
 * `"Bearer" 1*SP b64token`): verify sends the member's own token so on each secured operation, and
 * fails a server that answers it 401 (a parser that splits on one space).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../cli.ts';
import { runMain } from './run-main.test-support.ts';

const DOCUMENT = [
  'openapi: 3.1.0',
  'info: {title: t, version: "1"}',
  'components:',
  '  securitySchemes:',
  '    bearer: {type: http, scheme: bearer}',
  'security: [{bearer: []}]',
  'paths:',
  '  /mine:',
  '    get:',
  '      operationId: readMine',
  '      responses:',
  '        "200":',
  '          description: the caller’s',
  '          content:',
  '            application/json:',
  '              schema: {type: object, required: [ok], properties: {ok: {const: true}}}',
  '        "401": {description: no token, or not ours}',
  '',
].join('\n');

/**
 * verify run against a server of DOCUMENT that takes the token `good` when `Authorization` matches
 * `bearer` (its first group the token); every Authorization it got.
 */
async function verifyAgainst(bearer: RegExp, given: string): Promise<{ code: number; out: string; got: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'verify-bearer-spaces-'));
  writeFileSync(join(dir, 'mine.yaml'), DOCUMENT);
  const got: string[] = [];
  const server = createServer((req, res) => {
    const authorization = req.headers.authorization ?? '';
    got.push(authorization);
    if (bearer.exec(authorization)?.[1] === 'good') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    // RFC 6750 §3.1: a token refused is told why; no credentials at all, nothing.
    else res.writeHead(401, { 'www-authenticate': /^Bearer +\S/i.test(authorization) ? 'Bearer error="invalid_token"' : 'Bearer' }).end();
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { code, out } = await runMain(['--base-url', url, '--spec', join(dir, 'mine.yaml'), '--header', given, '--runs', '1']);
    return { code, out, got };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('verify: the member’s token after two spaces', () => {
  it('is sent on a secured operation, and a server that takes it as after one passes', async () => {
    const { code, out, got } = await verifyAgainst(/^Bearer +(\S+)$/i, 'Authorization: Bearer good');
    expect(got.filter((a) => a === 'Bearer  good')).toHaveLength(1);
    expect(code, out).toBe(EXIT.conformant);
  });

  it('answered 401 (a parser that splits on one space) fails the operation, saying why', async () => {
    const { code, out } = await verifyAgainst(/^Bearer (\S+)$/i, 'Authorization: Bearer good');
    expect(code).toBe(EXIT.notConformant);
    expect(out).toMatch(
      /FAIL +readMine .*GET \/mine takes the member's own token after two spaces \(Bearer {2}<token>\) as after one \(RFC 6750: "Bearer" 1\*SP b64token\), but it was answered 401/,
    );
  });

  it('is not sent when the member’s credentials are not written `Bearer <token>` with one space', async () => {
    const spaced = await verifyAgainst(/^Bearer +(\S+)$/i, 'Authorization: Bearer  good');
    expect(spaced.got).toContain('Bearer  good');
    expect(spaced.got.filter((a) => a.includes('Bearer   '))).toEqual([]);
    const basic = await verifyAgainst(/^Bearer +(\S+)$/i, 'Authorization: Basic Z29vZA==');
    expect(basic.got).toContain('Basic Z29vZA==');
    expect(basic.got.filter((a) => a.includes('Basic  '))).toEqual([]);
  });
});
