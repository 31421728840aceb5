/**
 * Proves that `npm run verify` catches real breakage: the verify CLI runs against the embedded mock
 * behind the fault proxy of verify/faults/. Through the pass-through proxy it must find
 * the mock conformant (exit 0); with each fault of the table injected alone it must find the backend
 * not conformant (exit 1) and print a FAIL line for the operation the fault breaks, and for no other
 * (verify runs as grace, with linus as the other member and ada as the admin, all signed in at the mock's provider):
 * an operation that answered correctly is never blamed (a list that breaks its schema, or lists a
 * record twice, must not lead verify's own set-up to fail the create or the delete that follow).
 *
 * Every run has its own proxy and mock, so runs go in parallel, a few at a time (VERIFY_FAULTS_JOBS,
 * default 4); VERIFY_FAULTS_RUNS sets verify's --runs (default 3: the fixed walks of the stateful
 * check run whatever --runs says, and the canonical invalid requests come first).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runVerifyProcess } from '../testkit/index.ts';
import { FAULT_NAMES, FAULTS, startFaultyBackend, type FaultName, type FaultyBackend } from '../verify/faults/backend.ts';

const SEED = '1';
/** Generated requests per operation and check: enough to reach every fault, few enough to run them all in parallel. */
const RUNS = process.env.VERIFY_FAULTS_RUNS ?? '3';
const JOBS = Number(process.env.VERIFY_FAULTS_JOBS ?? 4);
const RUN_TIMEOUT_MS = 240_000;

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

async function runVerify({ baseUrl, authorization, otherAuthorization, adminAuthorization }: FaultyBackend): Promise<VerifyRun> {
  const members = [
    '--header',
    `Authorization: ${authorization}`,
    '--other-header',
    `Authorization: ${otherAuthorization}`,
    '--admin-header',
    `Authorization: ${adminAuthorization}`,
  ];
  const { code, stdout, stderr } = await runVerifyProcess(['--base-url', baseUrl, ...members, '--seed', SEED, '--runs', RUNS], {
    timeoutMs: RUN_TIMEOUT_MS - 10_000,
  });
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

const caught = new Map<FaultName, boolean>();
/** FAIL lines of other operations than the fault's: verify blaming an operation that answered correctly. */
const collateral = new Map<FaultName, string[]>();
const suiteStart = Date.now();

afterAll(() => {
  const seconds = ((Date.now() - suiteStart) / 1000).toFixed(1);
  const missed = FAULT_NAMES.filter((name) => caught.get(name) !== true);
  console.log(`verify caught ${FAULT_NAMES.length - missed.length} of ${FAULT_NAMES.length} injected faults (${seconds} s)`);
  if (missed.length > 0) console.log(`missed: ${missed.join(', ')}`);
  for (const [name, others] of collateral) console.log(`${name}: verify also failed ${others.join(', ')}`);
});

describe('verify against the fault proxy', () => {
  it.concurrent(
    'finds the pass-through proxy conformant (exit 0)',
    async () => {
      const run = await verifyAgainst(null);
      expect(run.failed, run.output).toEqual(new Set());
      expect(run.code, run.output).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it.concurrent.each(FAULT_NAMES.map((name) => [name, FAULTS[name].operationId] as const))(
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
