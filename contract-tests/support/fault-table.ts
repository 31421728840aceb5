/**
 * Proves that `npm run verify` catches real breakage: the verify CLI runs against the embedded mock
 * behind the fault proxy of verify/faults/. Through the pass-through proxy it must find
 * the mock conformant (exit 0); with each fault of the table injected alone it must find the backend
 * not conformant (exit 1) and print a FAIL line for the operation the fault breaks, and for no other
 * (verify runs as grace, with linus as the other member and ada as the admin, all signed in at the mock's provider):
 * an operation that answered correctly is never blamed (a list that breaks its schema, or lists a
 * record twice, must not lead verify's own set-up to fail the create or the delete that follow).
 *
 * Every run has its own proxy and mock, so runs go in parallel: the table is cut into shards, one
 * test file each (verify-faults.test.ts, verify-faults-2.test.ts), which Vitest runs in workers of
 * their own, so the proxies and mocks of one shard share no thread with another's; within a shard a
 * few runs go at once (VERIFY_FAULTS_JOBS, default 2 per shard). VERIFY_FAULTS_RUNS sets verify's
 * --runs (default 3: the fixed walks of the stateful check run whatever --runs says, and the
 * canonical invalid requests come first).
 *
 * The verdicts do not depend on the machine's speed: verify gets a minute per request and 200 s per
 * operation, far over what any run takes even with the CPU busy, so that an operation is never left
 * not exercised (and its fault missed) because the machine was slow; a run that is slower than that
 * fails as too slow (the process is ended at RUN_TIMEOUT_MS), never as a wrong verdict. The table
 * proves it on a busy machine: while the first shard runs, a process spins beside it, on top of the
 * runs of both shards, and the verdicts must be the same ones.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerifyProcess } from '../../testkit/index.ts';
import { FAULT_NAMES, FAULTS, startFaultyBackend, type FaultName, type FaultyBackend } from '../../verify/index.ts';

const SEED = '1';
/** Generated requests per operation and check: enough to reach every fault, few enough to run them all in parallel. */
const RUNS = process.env.VERIFY_FAULTS_RUNS ?? '3';
const JOBS = Number(process.env.VERIFY_FAULTS_JOBS ?? 2);
const RUN_TIMEOUT_MS = 240_000;
/** verify's own limits, generous (see above): a minute per request, 200 s per operation. */
const SPEED_INDEPENDENT = ['--request-timeout', '60', '--operation-timeout', '200'];
/** How many test files the table is cut into. */
const FAULT_TABLE_SHARDS = 2;

interface VerifyRun {
  code: number | null;
  /** What verify printed, stdout then stderr. */
  output: string;
  /** operationIds of the FAIL lines. */
  failed: Set<string>;
}

/** At most JOBS verify runs at once: each is a Node process beside the proxies in this one. */
let running = 0;
const waiting: Array<() => void> = [];
async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= JOBS) await new Promise<void>((go) => waiting.push(go));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

async function runVerify({
  baseUrl,
  authorization,
  otherAuthorization,
  adminAuthorization,
  refusedAuthorizations,
}: FaultyBackend): Promise<VerifyRun> {
  const members = [
    '--header',
    `Authorization: ${authorization}`,
    '--other-header',
    `Authorization: ${otherAuthorization}`,
    '--admin-header',
    `Authorization: ${adminAuthorization}`,
    ...refusedAuthorizations.flatMap((refused) => ['--refused-header', `Authorization: ${refused}`]),
  ];
  const { code, stdout, stderr } = await runVerifyProcess(
    // Each fault's backend is started for its run: its rate limits start afresh.
    ['--base-url', baseUrl, ...members, '--fresh-server', '--seed', SEED, '--runs', RUNS, ...SPEED_INDEPENDENT],
    {
      timeoutMs: RUN_TIMEOUT_MS - 10_000,
    },
  );
  const failed = new Set<string>();
  for (const line of stdout.split('\n')) {
    const match = /^FAIL\s+(\S+)/.exec(line);
    if (match) failed.add(match[1]!);
  }
  return { code, output: `${stdout}${stderr}`, failed };
}

async function verifyAgainst(fault: FaultName | null): Promise<VerifyRun> {
  return limited(async () => {
    const backend = await startFaultyBackend(fault);
    try {
      return await runVerify(backend);
    } finally {
      await backend.close();
    }
  });
}

/** The faults of shard `shard` (from 0): every FAULT_TABLE_SHARDS-th of the table, so each shard gets its share of every kind. */
function faultsOfShard(shard: number): FaultName[] {
  return FAULT_NAMES.filter((_, index) => index % FAULT_TABLE_SHARDS === shard);
}

/** One shard of the table, as a test file's suite: shard 0 also runs verify through the pass-through proxy. */
export function faultTable(shard: number): void {
  const faults = faultsOfShard(shard);
  const caught = new Map<FaultName, boolean>();
  /** FAIL lines of other operations than the fault's: verify blaming an operation that answered correctly. */
  const collateral = new Map<FaultName, string[]>();
  const suiteStart = Date.now();

  /** A process that keeps a core busy while the first shard runs. */
  let spinner: ChildProcess | undefined;
  if (shard === 0) {
    beforeAll(() => {
      spinner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    });
    afterAll(() => {
      spinner?.kill('SIGKILL');
    });
  }

  afterAll(() => {
    const seconds = ((Date.now() - suiteStart) / 1000).toFixed(1);
    const missed = faults.filter((name) => caught.get(name) !== true);
    const part = `part ${shard + 1} of ${FAULT_TABLE_SHARDS}`;
    console.log(
      `verify caught ${faults.length - missed.length} of ${faults.length} injected faults (${part} of the table's ${FAULT_NAMES.length}, ${seconds} s)`,
    );
    if (missed.length > 0) console.log(`missed: ${missed.join(', ')}`);
    for (const [name, others] of collateral) console.log(`${name}: verify also failed ${others.join(', ')}`);
  });

  describe(`verify against the fault proxy (part ${shard + 1} of ${FAULT_TABLE_SHARDS})`, () => {
    if (shard === 0)
      it('the parts together hold every fault of the table, each once', () => {
        const parts = Array.from({ length: FAULT_TABLE_SHARDS }, (_, i) => faultsOfShard(i)).flat();
        expect(parts.toSorted()).toEqual([...FAULT_NAMES].sort());
      });
    if (shard === 0)
      it.concurrent(
        'finds the pass-through proxy conformant (exit 0)',
        async () => {
          const run = await verifyAgainst(null);
          expect(run.failed, run.output).toEqual(new Set());
          expect(run.code, run.output).toBe(0);
        },
        RUN_TIMEOUT_MS,
      );

    it.concurrent.each(faults.map((name) => [name, FAULTS[name].operationId] as const))(
      'catches %s (FAIL %s and no other operation, exit 1)',
      async (name, operationId) => {
        caught.set(name, false);
        const run = await verifyAgainst(name);
        const hit = run.code === 1 && run.failed.has(operationId);
        caught.set(name, hit);
        const others = [...run.failed].filter((id) => id !== operationId);
        if (others.length > 0) collateral.set(name, others);
        const why = `${name} breaks ${operationId}: ${FAULTS[name].breaks}\n--- verify said (exit ${run.code}):\n${run.output}`;
        expect(run.failed.has(operationId), why).toBe(true);
        expect(run.code, why).toBe(1);
        expect(others, `verify also failed operations that answered correctly\n${why}`).toEqual([]);
      },
      RUN_TIMEOUT_MS,
    );
  });
}
