/**
 * The Node mock server itself: GET /api/symbols answers the three seeded symbols, after the
 * configured delay (seed spec: the in-memory backend answers after 1000 ms). One slow test.
 */
import { describe, expect, it } from 'vitest';
import { startServer } from '../server/index.ts';
import { AnswerContract } from '../openapi-kit/node.ts';

describe('Node mock server', () => {
  it('answers GET /api/symbols with MSFT, AAPL and GOOG after its 1000 ms delay', async () => {
    const server = await startServer({ port: 0, delayMs: 1000, distDir: null });
    try {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/symbols`);
      const body: unknown = await response.json();
      const elapsed = performance.now() - started;
      expect(response.status).toBe(200);
      const contract = new AnswerContract();
      expect(
        contract.checkAnswer(contract.byId('listSymbols'), {
          status: response.status,
          headers: response.headers,
          body: new TextEncoder().encode(JSON.stringify(body)),
        }),
      ).toEqual([]);
      expect((body as Array<{ code: string }>).map((s) => s.code)).toEqual(['MSFT', 'AAPL', 'GOOG']);
      expect(elapsed).toBeGreaterThanOrEqual(950);
    } finally {
      await server.close();
    }
  });
});
