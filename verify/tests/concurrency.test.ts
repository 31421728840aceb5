import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenApiSpec, type OperationSpec } from '../../openapi-kit/index.ts';
import { loadSpec } from '../../openapi-kit/node.ts';
import { type EmbeddedMock, startEmbeddedMock } from '../mock.ts';
import { byResource, eachAtMost, runVerify } from '../run.ts';
import { resourceOf } from '../exchange.ts';
import { Target } from '../target.ts';

/**
 * `npm run verify -- --concurrency N`: resources side by side, each resource's operations in order.
 * The same seed sends each operation the same requests at any N, and the run's verdict is the same.
 */
const spec = new OpenApiSpec(loadSpec(), { detailed: true, name: 'openapi.yaml' });
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const op = (path: string, method = 'GET') => ({ path, method }) as OperationSpec;

describe('the grouping', () => {
  it('a resource is the first segment of the path', () => {
    expect(resourceOf(op('/accounts'))).toBe('accounts');
    expect(resourceOf(op('/accounts/{id}'))).toBe('accounts');
    expect(resourceOf(op('/user/profile/{id}'))).toBe('user');
    expect(resourceOf(op('/'))).toBe('');
  });

  it("groups the document's operations by resource, each group in the document's order, every operation once", () => {
    const groups = byResource(spec.operations);
    expect(
      groups
        .flat()
        .map((o) => o.id)
        .sort(),
    ).toEqual(spec.operations.map((o) => o.id).sort());
    for (const group of groups) {
      expect(new Set(group.map(resourceOf)).size).toBe(1);
      const order = group.map((o) => spec.operations.indexOf(o));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    expect(new Set(groups.map((g) => resourceOf(g[0]!))).size).toBe(groups.length);
  });

  it('runs every item, never more than the limit at a time, and starts them in order', async () => {
    for (const limit of [1, 3, 20]) {
      const started: number[] = [];
      let running = 0;
      let most = 0;
      await eachAtMost(limit, [0, 1, 2, 3, 4, 5, 6], async (n) => {
        started.push(n);
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5 * ((n * 7) % 4)));
        running--;
      });
      expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(most).toBe(Math.min(limit, 7));
    }
  });
});

describe('a run side by side', () => {
  const mocks: EmbeddedMock[] = [];
  afterAll(async () => {
    await Promise.all(mocks.map((m) => m.close()));
  });

  /**
   * One run against a mock of its own (what a run creates changes the next run's ids): what each
   * operation was sent, the body as a digest, the server's ids masked; and the most requests at once.
   */
  async function recordRun(concurrency: number) {
    const mock = await startEmbeddedMock();
    mocks.push(mock);
    const target = new Target({
      baseUrl: mock.baseUrl,
      headers: mock.headers,
      otherHeaders: mock.otherHeaders,
      adminHeaders: mock.adminHeaders,
    });
    const sent = new Map<string, string[]>();
    target.onExchange = (exchange) => {
      if (!exchange.op) return;
      const { method, url, body } = exchange.request;
      // The ids the server made (UUIDs) differ from run to run; what verify chose does not.
      const text = JSON.stringify(body ?? null, (_key, value: unknown) =>
        value instanceof Uint8Array ? new TextDecoder().decode(value) : value,
      );
      const digest = createHash('sha256').update(text.replace(UUID, '<id>')).digest('hex').slice(0, 16);
      const line = `${method} ${url.replace(new URL(mock.baseUrl).origin, '').replace(UUID, '<id>')} ${digest}`;
      sent.set(exchange.op.id, [...(sent.get(exchange.op.id) ?? []), line]);
    };
    const send = target.send.bind(target);
    let inFlight = 0;
    let most = 0;
    target.send = async (...args) => {
      most = Math.max(most, ++inFlight);
      try {
        return await send(...args);
      } finally {
        inFlight--;
      }
    };
    try {
      const results = await runVerify(spec, target, { seed: 7, runs: 1, readOnly: false, ownServer: false, concurrency });
      const meta = {
        baseUrl: mock.baseUrl,
        embedded: false,
        spec: 'openapi.yaml',
        seed: 7,
        runs: 1,
        readOnly: false,
        startedAt: '',
        ms: 0,
      };
      const { summary } = results.finish(meta, target.sent);
      return { sent, most, summary };
    } finally {
      target.close();
    }
  }

  it('sends each operation the same requests as one at a time, with several in flight, to the same verdict', {
    timeout: 600_000,
  }, async () => {
    const one = await recordRun(1);
    const many = await recordRun(6);
    expect(one.most).toBe(1);
    expect(many.most).toBeGreaterThan(1);
    expect([...many.sent.keys()].sort()).toEqual([...one.sent.keys()].sort());
    for (const [id, requests] of one.sent) expect(many.sent.get(id), id).toEqual(requests);
    expect(one.summary.failed).toBe(0);
    expect(many.summary).toEqual(one.summary);
  });
});
