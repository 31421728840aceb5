import { describe, expect, it } from 'vitest';
import { consoleReport } from '../report/console.ts';
import type { CheckName, CheckResult, Failure, RunResults } from '../results.ts';

/** A run with one failing operation whose failures carry these curl lines. */
function runWith(curls: string[]): RunResults {
  const failures: Failure[] = curls.map((curl) => ({
    operationId: 'getThing',
    method: 'GET',
    path: '/things/{id}',
    check: 'invalid input',
    title: 'GET /things/{id}: expected 401, got 200',
    curl,
    response: '200 application/json {}',
    violations: [],
  }));
  const pass: CheckResult = { status: 'pass', requests: 1, failures: [] };
  const checks = Object.fromEntries(
    (['responses', 'valid input', 'invalid input', 'limits', 'stateful', 'links'] as CheckName[]).map((name) => [
      name,
      name === 'invalid input' ? { status: 'fail', requests: curls.length, failures } : pass,
    ]),
  ) as Record<CheckName, CheckResult>;
  return {
    baseUrl: 'http://127.0.0.1:1/api',
    embedded: false,
    spec: 'openapi.yaml',
    seed: 1,
    runs: 25,
    readOnly: false,
    startedAt: '2026-01-01T00:00:00.000Z',
    ms: 1,
    requests: curls.length,
    operations: [
      {
        operationId: 'getThing',
        method: 'GET',
        path: '/things/{id}',
        status: 'fail',
        why: '',
        requests: 1,
        documented: ['200', '401'],
        seen: {},
        checks,
      },
    ],
    links: [],
    summary: {
      operations: 1,
      passed: 0,
      failed: 1,
      notExercised: 0,
      requests: 1,
      links: 0,
      linksFollowed: 0,
      statuses: 2,
      statusesSeen: 1,
    },
    notes: [],
  };
}

describe('the console report', () => {
  it('names every variable the failures read credentials from, once each, in the order they come', () => {
    const report = consoleReport(
      runWith([
        `curl -sS -i -H 'Authorization: x'"\${VERIFY_ADMIN_AUTHORIZATION}" http://127.0.0.1:1/api/things/1`,
        'curl -sS -i -H "Authorization: $VERIFY_REFUSED_2_AUTHORIZATION" http://127.0.0.1:1/api/things/1',
        'curl -sS -i -H "Authorization: $VERIFY_ADMIN_AUTHORIZATION" http://127.0.0.1:1/api/things/1',
      ]),
    );
    expect(report).toContain('(The curl lines read the credentials from $VERIFY_ADMIN_AUTHORIZATION, $VERIFY_REFUSED_2_AUTHORIZATION:');
  });

  it('says nothing of variables when no failure reads one', () => {
    expect(consoleReport(runWith(['curl -sS -i http://127.0.0.1:1/api/things/1']))).not.toContain('read the credentials');
  });
});
