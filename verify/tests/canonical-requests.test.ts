/**
 * verify's canonical invalid requests.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../cli.ts';
import { runMain } from './run-main.test-support.ts';

describe('verify: the canonical invalid requests', () => {
  it('are all sent, whatever --runs says (the generated ones come on top)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-canonical-'));
    writeFileSync(
      join(dir, 'things.yaml'),
      [
        'openapi: 3.1.0',
        'info: {title: t, version: "1"}',
        'paths:',
        '  /things:',
        '    post:',
        '      operationId: createThing',
        '      requestBody:',
        '        required: true',
        '        content:',
        '          application/json:',
        '            schema:',
        '              type: object',
        '              required: [a, b, c]',
        '              additionalProperties: false',
        '              properties: {a: {type: string, maxLength: 3}, b: {type: string, maxLength: 3}, c: {type: string, maxLength: 3}}',
        '      responses: {"201": {description: created}, "400": {description: refused}, "415": {description: not JSON}}',
        'components: {schemas: {}}',
        '',
      ].join('\n'),
    );
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const type = req.headers['content-type'];
        if (req.method === 'POST') bodies.push(`${type ?? '-'} ${Buffer.concat(chunks).toString()}`);
        res.writeHead(type === undefined || type === 'application/json' ? 400 : 415).end();
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { code } = await runMain(['--base-url', url, '--spec', join(dir, 'things.yaml'), '--runs', '1', '--quiet']);
      expect(code).toBe(EXIT.notConformant); // a valid request refused with 400
      const keys = (b: string) => {
        try {
          return Object.keys(JSON.parse(b.slice(b.indexOf(' ') + 1)) as object)
            .sort()
            .join(',');
        } catch {
          return null;
        }
      };
      const json = bodies.filter((b) => b.startsWith('application/json '));
      for (const left of ['b,c', 'a,c', 'a,b']) expect(json.map(keys), `a body with only ${left}`).toContain(left);
      expect(bodies).toContain('application/json {"');
      expect(bodies.some((b) => b.startsWith('text/plain '))).toBe(true);
      expect(bodies, JSON.stringify(bodies)).toContain('- ');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
