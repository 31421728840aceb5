/**
 * What the wire cannot carry is never judged as sent: a path value `.` or `..` (URLs drop
 * dot-segments, so the request names another resource) and a header value with spaces at either
 * end (HTTP drops them, so the server sees another value). Against the embedded mock, with the
 * seeds that once drew each of them (`/commands/.` answered as the collection's path; an
 * Idempotency-Key "i0 " that arrived as "i0", a valid key, answered 409): conformant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../cli.ts';
import { type EmbeddedMock, startEmbeddedMock } from '../mock.ts';
import { runMain } from './run-main.test-support.ts';

let mock: EmbeddedMock;
beforeAll(async () => {
  mock = await startEmbeddedMock();
});
afterAll(async () => {
  await mock?.close();
});

const as = (flag: string, headers: Array<[string, string]>) => headers.flatMap(([name, value]) => [flag, `${name}: ${value}`]);

describe('verify sends what it judges', () => {
  for (const seed of ['23', '28']) {
    it(`seed ${seed}: a verdict on the requests the server really got`, { timeout: 120_000 }, async () => {
      const { code, out } = await runMain([
        '--base-url',
        mock.baseUrl,
        ...as('--header', mock.headers),
        ...as('--other-header', mock.otherHeaders),
        ...as('--admin-header', mock.adminHeaders),
        '--runs',
        '2',
        '--seed',
        seed,
        '--quiet',
        '--request-timeout',
        '60',
      ]);
      expect(out).not.toMatch(/\/commands\/\.(\s|$)/m);
      expect(out).not.toMatch(/header \S+ "[^"]* " breaks its schema/);
      expect(code, out).toBe(EXIT.conformant);
    });
  }
});
