/**
 * Generated input, derived from openapi.yaml, thrown at every operation of the Node mock server
 * through `prism proxy openapi.yaml <server>/api --errors` (and, for what the proxy cannot carry or
 * shields the mock from, straight at the server). See verify/request-generator.ts for what is
 * generated and openapi-kit/arbitraries.ts for how values follow the schemas.
 *
 * Every answer must honour the contract (no Prism violation, a documented status, media type and
 * body), no answer may be a 5xx (but runCommand's documented 500 for an unknown command), every
 * error body is {status, error, message}; the API accepts nothing the contract forbids and Prism
 * rejects nothing it allows. Afterwards the server must still answer and its heap must not have grown
 * past MAX_HEAP_GROWTH.
 *
 * Replay: the seed is logged at start. `CIRCLE_FC_SEED=<seed>` replays a whole run; a failure prints
 * the exact command to replay its shrunk counterexample (`CIRCLE_FC_OP` + `CIRCLE_FC_PATH`).
 * `CIRCLE_FC_RUNS=<factor>` scales the number of runs (e.g. 5 for a longer soak).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionName } from '../src/index.ts';
import { startServer, type RunningServer } from '../server/index.ts';
import { build, RequestGenerator, RequestJudge, type Batch, type Body, type GeneratedRequest, type Setup } from '../verify/index.ts';
import type { OperationSpec } from '../openapi-kit/index.ts';
import { judgeAnswer } from './support/answer-properties.ts';
import { makePng } from '../openapi-kit/node.ts';
import { AnswerContract } from '../openapi-kit/node.ts';
import { startPrismProxy, type PrismProcess, uiConfigBuild } from '../testkit/index.ts';
import { SAMPLE_PROFILE, SAMPLE_INPUT } from '../testkit/index.ts';
import { bearerOf, testAuthenticate } from '../testkit/index.ts';

const FILE = 'contract-tests/generated-input.test.ts';
const MIN_REQUESTS = 2000;
const MAX_HEAP_GROWTH = 150 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 20_000;

// -------------------------------------------------------------------------------------------------
// Seed and replay
// -------------------------------------------------------------------------------------------------

function readInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`${name}='${raw}' is not an integer`);
  return n;
}

const SEED = readInt('CIRCLE_FC_SEED') ?? (Math.random() * 2 ** 31) | 0;
const REPLAY_OP = process.env.CIRCLE_FC_OP || undefined;
const REPLAY_PATH = process.env.CIRCLE_FC_PATH || undefined;
const RUNS_FACTOR = Number(process.env.CIRCLE_FC_RUNS || 1);
if (!(RUNS_FACTOR > 0)) throw new Error(`CIRCLE_FC_RUNS='${process.env.CIRCLE_FC_RUNS}' is not a positive factor`);
const replayCommand = (extra = '') => `CIRCLE_FC_SEED=${SEED}${extra} npx vitest run --project contract ${FILE}`;
console.log(`[generated-input] seed ${SEED}; replay this run with: ${replayCommand()}`);

/** Each property gets its own seed from the run's seed, so they do not all draw the same choices. */
function seedOf(key: string): number {
  let h = 0x811c9dc5;
  for (const c of key) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return (SEED ^ h) | 0;
}

/** Reports a failure with fast-check's own report (seed, path, shrunk counterexample) and the commands to replay it. */
const replayReport =
  (key: string): fc.Plugin<[Batch]> =>
  () => ({
    async onAllRunsComplete(details) {
      if (!details.failed) return;
      const report = await fc.asyncDefaultReportMessage(details);
      throw new Error(
        `${report}\n\n` +
          `Replay this counterexample:\n  ${replayCommand(` CIRCLE_FC_OP=${key} CIRCLE_FC_PATH=${details.counterexamplePath ?? ''}`)}\n` +
          `Replay the whole run:\n  ${replayCommand()}\n`,
      );
    },
  });

// -------------------------------------------------------------------------------------------------
// The system under test
// -------------------------------------------------------------------------------------------------

const contract = new AnswerContract();
const generator = new RequestGenerator(contract.doc);
const judge = new RequestJudge(contract.doc);

let server: RunningServer;
let proxy: PrismProcess;
let rootProxy: PrismProcess;
const buildDir = uiConfigBuild();
const noBuild = mkdtempSync(join(tmpdir(), 'circle-empty-'));
let heapBefore = 0;

setFlagsFromString('--expose-gc');
const gcCandidate: unknown = runInNewContext('gc');
const collectGarbage = () => {
  if (typeof gcCandidate === 'function') gcCandidate();
};

/**
 * The secured operations (the profile's, and the shared collections' writes and the commands, an
 * admin's): each request of one carries ada's bearer token, who is a member and the admin. The
 * server reads the test double's tokens (testkit/test-identities.ts); Prism's proxy only checks
 * that a bearer token is there. What the server does without one, or with a member's who is no
 * admin, is contract-tests/accounts.test.ts's and mock-api/handlers/gate.test.ts's.
 */
const MEMBER = bearerOf('ada');
const endpoints = () => ({
  proxy: proxy.url,
  rootProxy: rootProxy.url,
  server: server.url,
  headers: (op: OperationSpec): Record<string, string> => (op.secured ? MEMBER : {}),
});

beforeAll(async () => {
  server = await startServer({ port: 0, delayMs: 0, distDir: null, authenticate: testAuthenticate });
  const started = await Promise.allSettled([
    startPrismProxy(`${server.url}/api`, { readyPath: '/symbols', quiet: true }),
    startPrismProxy(server.url, { readyPath: '/assets/ui-config.json', quiet: true }),
  ]);
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
    throw failed.reason;
  }
  [proxy, rootProxy] = started.map((s) => (s as PromiseFulfilledResult<PrismProcess>).value) as [PrismProcess, PrismProcess];
  collectGarbage();
  heapBefore = process.memoryUsage().heapUsed;
});

afterAll(async () => {
  await Promise.all([proxy?.stop(), rootProxy?.stop()]);
  await server?.close();
  buildDir.remove();
  rmSync(noBuild, { recursive: true, force: true });
});

// -------------------------------------------------------------------------------------------------
// Setting up state, sending, recording
// -------------------------------------------------------------------------------------------------

/** A set-up request straight to the mock, as ada (who may write the shared collections) unless it says otherwise. */
async function direct(method: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = { ...MEMBER, ...Object.fromEntries(new Headers(init.headers)) };
  return fetch(`${server.url}/api${path}`, { method, ...init, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
}

async function expectStatus(response: Response, expected: number[], what: string): Promise<unknown> {
  const text = await response.text();
  if (!expected.includes(response.status)) throw new Error(`setup: ${what} answered ${response.status}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

const NO_SUCH_PROFILE = '00000000-0000-4000-8000-000000000000';

/** Resets the mock, applies the batch's setup, and answers the value `existing` path ids stand for. */
async function prepare(op: OperationSpec, setup: Setup): Promise<string> {
  await expectStatus(await direct('POST', '/commands/reset'), [204], 'POST /commands/reset');
  if (op.id === 'runCommand') return 'reset';
  if (op.root) {
    server.deploy(setup === 'build' ? buildDir.dir : noBuild);
    return '';
  }
  if (op.path.startsWith('/user/profile')) {
    if (setup === 'no-own-record') return NO_SUCH_PROFILE;
    let response: Response;
    if (setup === 'own-record-with-file') {
      const form = new FormData();
      for (const [k, v] of Object.entries(SAMPLE_PROFILE)) form.append(k, Array.isArray(v) ? v.join(',') : String(v));
      form.append('avatar', new Blob([makePng(8)], { type: 'image/png' }), 'a.png');
      response = await direct('POST', '/user/profile', { headers: MEMBER, body: form });
    } else {
      response = await direct('POST', '/user/profile', {
        headers: { ...MEMBER, 'content-type': 'application/json' },
        body: JSON.stringify(SAMPLE_PROFILE),
      });
    }
    const created = (await expectStatus(response, [201], 'create the profile')) as { id: string };
    return created.id;
  }
  const name = generator.collectionOf(op) as CollectionName | null;
  if (!name) return '1';
  const list = async () => (await expectStatus(await direct('GET', `/${name}`), [200], `GET /${name}`)) as Array<{ id: string }>;
  let rows = await list();
  if (setup === 'empty') {
    for (const row of rows)
      await expectStatus(await direct('DELETE', `/${name}/${encodeURIComponent(row.id)}`), [204], `DELETE /${name}/${row.id}`);
    return '1';
  }
  if (setup === 'extra') {
    if (rows.length >= 3 && (name === 'symbols' || name === 'accounts')) {
      await expectStatus(await direct('DELETE', `/${name}/${encodeURIComponent(rows.at(-1)!.id)}`), [204], `DELETE from ${name}`);
    }
    const created = (await expectStatus(
      await direct('POST', `/${name}`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(SAMPLE_INPUT[name]) }),
      [201],
      `POST /${name}`,
    )) as { id: string };
    return created.id;
  }
  rows = rows.length > 0 ? rows : await list();
  return rows[0]?.id ?? '1';
}

interface OpStats {
  sent: number;
  proxy: number;
  direct: number;
  rejectedByPrism: number;
  valid: number;
  invalid: number;
  unspecified: number;
  statuses: Map<number, number>;
}
const stats = new Map<string, OpStats>();
function statsOf(op: string): OpStats {
  let s = stats.get(op);
  if (!s) {
    s = { sent: 0, proxy: 0, direct: 0, rejectedByPrism: 0, valid: 0, invalid: 0, unspecified: 0, statuses: new Map() };
    stats.set(op, s);
  }
  return s;
}

function describeBody(b: Body): string {
  switch (b.kind) {
    case 'none':
      return 'no body';
    case 'json':
      return `${b.contentType} (${b.note})`;
    case 'form':
      return `multipart (${b.note})`;
    default:
      return `${b.contentType ?? 'no content type'} (${b.note})`;
  }
}

/**
 * Set when a Prism proxy stops answering (it has crashed): the batch that killed it fails with
 * Prism's output, shrinking stops there (later batches pass without sending anything, so that the
 * counterexample stays the request that killed it), and every later property fails at once.
 */
let prismDied: string | null = null;

async function isDead(prism: PrismProcess): Promise<boolean> {
  try {
    await (await fetch(`${prism.url}/symbols`, { signal: AbortSignal.timeout(5000) })).arrayBuffer();
    return false;
  } catch {
    return true;
  }
}

/** Sends one generated request; answers the problems found with it, each naming the request. */
async function send(op: OperationSpec, r: GeneratedRequest, existing: string): Promise<string[]> {
  const built = build(op, r, endpoints(), existing);
  const reached = contract.match(r.method, built.contractPath);
  // A path value like '', '.', '..' or 'a/b' makes the URL name another resource: the contract
  // then says nothing about the request as an instance of this operation.
  const verdict =
    reached?.id === op.id ? judge.verdict(op, r, existing) : { valid: null, why: [`the URL reaches ${reached?.id ?? 'no operation'}`] };
  const s = statsOf(op.id);
  s.sent++;
  s[r.via]++;
  s[verdict.valid === true ? 'valid' : verdict.valid === false ? 'invalid' : 'unspecified']++;
  const label = `${r.via}${r.chunked ? ' chunked' : ''} ${r.method} ${built.url.length > 200 ? `${built.url.slice(0, 200)}…` : built.url} [${describeBody(r.body)}, ${built.bodyBytes} bytes]`;
  let response: Response;
  try {
    response = await fetch(built.url, { ...built.init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    const prism = op.root ? rootProxy : proxy;
    let prismLog = '';
    if (r.via === 'proxy' && (await isDead(prism))) {
      prismLog = `\n--- Prism died; its output (tail) ---\n${prism.output().slice(-2000)}`;
      prismDied ??= `Prism died while ${op.id} was tested, on: ${label}${prismLog}`;
    }
    return [`${label} → no answer: ${error instanceof Error ? error.message : String(error)}${cause}${prismLog}`];
  }
  const body = new Uint8Array(await response.arrayBuffer());
  const outcome = judgeAnswer(contract, op, r, built, verdict, { status: response.status, headers: response.headers, body });
  if (outcome.by === 'prism') s.rejectedByPrism++;
  s.statuses.set(response.status, (s.statuses.get(response.status) ?? 0) + 1);
  const contractSays = verdict.valid === null ? 'unspecified' : verdict.valid ? 'valid' : `invalid: ${verdict.why.join('; ')}`;
  return outcome.problems.map(
    (p) => `${label} (contract: ${contractSays}) → ${response.status} ${outcome.by === 'prism' ? 'from Prism' : 'from the API'}: ${p}`,
  );
}

/**
 * After a batch, what the mock now holds must still read back as the contract says (a list within
 * its maxItems, records of the record schema, a valid profile): whatever the batch did, it cannot
 * have stored something the API can no longer answer. Not counted as a generated request.
 */
async function stateProblems(op: OperationSpec): Promise<string[]> {
  const name = generator.collectionOf(op);
  const path = name ? `/${name}` : op.path.startsWith('/user/profile') ? '/user/profile/myprofile' : null;
  if (!path) return [];
  const response = await direct('GET', path, name ? {} : { headers: MEMBER });
  const body = new Uint8Array(await response.arrayBuffer());
  const problems = contract.checkAnswer(contract.match('GET', path)!, { status: response.status, headers: response.headers, body });
  return problems.map((p) => `reading the state back after the batch, GET /api${path}: ${p}`);
}

async function runBatch(op: OperationSpec, batch: Batch): Promise<void> {
  if (prismDied) return;
  const existing = await prepare(op, batch.setup);
  const problems = (await Promise.all(batch.requests.map((r) => send(op, r, existing)))).flat();
  problems.push(...(await stateProblems(op)));
  if (problems.length > 0) throw new Error(`${problems.length} problem(s) after setup '${batch.setup}':\n- ${problems.join('\n- ')}`);
}

// -------------------------------------------------------------------------------------------------
// The properties
// -------------------------------------------------------------------------------------------------

interface PropertySpec {
  key: string;
  title: string;
  op: OperationSpec;
  arb: fc.Arbitrary<Batch>;
  numRuns: number;
}

const runs = (n: number) => Math.max(1, Math.round(n * RUNS_FACTOR));
const properties: PropertySpec[] = [
  ...generator.ops.map((op) => ({
    key: op.id,
    title: `${op.id}: ${op.method} ${op.path}`,
    op,
    arb: generator.batch(op),
    numRuns: runs(op.body ? 32 : 15),
  })),
  ...generator.ops.flatMap((op) => {
    const arb = generator.heavyJson(op);
    return arb ? [{ key: `oversized-json:${op.id}`, title: `${op.id}: JSON bodies above 64 KB`, op, arb, numRuns: runs(2) }] : [];
  }),
  ...generator.ops.flatMap((op) => {
    const arb = generator.heavyForm(op);
    return arb ? [{ key: `oversized-form:${op.id}`, title: `${op.id}: multipart bodies above 2 MB`, op, arb, numRuns: runs(2) }] : [];
  }),
];

describe('generated input through prism proxy into the Node mock', () => {
  it('generates for exactly the operations of openapi.yaml', () => {
    expect(generator.ops.map((o) => o.id).sort()).toEqual(contract.operationIds);
    expect(new Set(properties.map((p) => p.key)).size).toBe(properties.length);
    if (REPLAY_OP)
      expect(
        properties.map((p) => p.key),
        `CIRCLE_FC_OP=${REPLAY_OP} names no property`,
      ).toContain(REPLAY_OP);
  });

  for (const p of properties) {
    it.skipIf(REPLAY_OP !== undefined && REPLAY_OP !== p.key)(p.title, { timeout: 300_000 }, async () => {
      if (prismDied) throw new Error(prismDied);
      await fc.assert(
        fc.asyncProperty(p.arb, (batch) => runBatch(p.op, batch)),
        {
          seed: seedOf(p.key),
          numRuns: p.numRuns,
          verbose: fc.VerbosityLevel.Verbose,
          includeErrorInReport: true,
          ...(REPLAY_OP === p.key && REPLAY_PATH ? { path: REPLAY_PATH } : {}),
          plugins: [replayReport(p.key)],
        },
      );
    });
  }

  it.skipIf(REPLAY_OP !== undefined)(`sent generated requests to every operation, at least ${MIN_REQUESTS} in all`, () => {
    const rows = [...stats.entries()].sort(([a], [b]) => a.localeCompare(b));
    const total = rows.reduce((n, [, s]) => n + s.sent, 0);
    const lines = rows.map(([id, s]) => {
      const statuses = [...s.statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([k, v]) => `${k}×${v}`)
        .join(' ');
      return (
        `${id.padEnd(22)} ${String(s.sent).padStart(4)}  proxy ${String(s.proxy).padStart(3)} direct ${String(s.direct).padStart(3)}  ` +
        `valid ${String(s.valid).padStart(3)} invalid ${String(s.invalid).padStart(3)} unspecified ${String(s.unspecified).padStart(3)}  ` +
        `rejected by Prism ${String(s.rejectedByPrism).padStart(3)}  ${statuses}`
      );
    });
    const counts = rows.map(([, s]) => s.sent);
    console.log(
      `[generated-input] ${total} generated requests (seed ${SEED}); per operation ${Math.min(...counts)}–${Math.max(...counts)}\n${lines.join('\n')}`,
    );
    const missing = contract.operationIds.filter((id) => (stats.get(id)?.sent ?? 0) === 0);
    expect(missing, 'operations that got no generated request').toEqual([]);
    expect(total).toBeGreaterThanOrEqual(MIN_REQUESTS);
  });

  it(`left the server alive, and its heap grew by less than ${MAX_HEAP_GROWTH / 1024 / 1024} MB`, async () => {
    await expectStatus(await direct('POST', '/commands/reset'), [204], 'POST /commands/reset');
    for (const [via, url, basePath] of [
      ['direct', `${server.url}/api/symbols`, '/api'],
      ['proxy', `${proxy.url}/symbols`, ''],
      ['root proxy', `${rootProxy.url}/assets/ui-config.json`, ''],
    ] as const) {
      const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const body = new Uint8Array(await response.arrayBuffer());
      const path = new URL(url).pathname.slice(basePath.length);
      expect(response.status, `${via} GET ${path}`).toBeLessThan(500);
      expect(
        contract.checkAnswer(contract.match('GET', path)!, { status: response.status, headers: response.headers, body }),
        `${via} GET ${path}`,
      ).toEqual([]);
      if (path === '/symbols') {
        expect(response.status, `${via} GET ${path}`).toBe(200);
        expect(JSON.parse(new TextDecoder().decode(body))).toHaveLength(3);
      }
    }
    collectGarbage();
    const growth = process.memoryUsage().heapUsed - heapBefore;
    console.log(`[generated-input] heap growth ${(growth / 1024 / 1024).toFixed(1)} MB`);
    expect(growth).toBeLessThan(MAX_HEAP_GROWTH);
  });
});
