import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess, tinyBuild } from '../testkit/index.ts';
import { runVerifyProcess } from '../testkit/index.ts';
import { signInAs } from './support/sign-in.ts';

/** Independent servers, each with its own file, killed and restarted side by side. */
const LANES = 4;
/**
 * How many kills: a short run in `npm test` (a few per server, enough to meet a kill during a write
 * and a restart from a file written under way), the 200-kill soak as a step of its own in .ci/run
 * (PERSIST_SOAK_KILLS=200).
 */
const KILLS = soakKills(process.env.PERSIST_SOAK_KILLS);
/** A kill comes this long at most after the server's first acknowledged write, while it is busy writing. */
const MAX_KILL_DELAY_MS = 150;

function soakKills(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 24;
  const kills = Number(raw);
  if (!Number.isSafeInteger(kills) || kills < LANES)
    throw new Error(`PERSIST_SOAK_KILLS must be a whole number of ${LANES} or more, not '${raw}'`);
  return kills;
}

type Write = { kind: 'create' | 'delete'; id: string };

interface LaneFigures {
  kills: number;
  acknowledged: number;
  /** The write under way at a kill: found done after the restart, or not done. */
  inFlightDone: number;
  inFlightNotDone: number;
  restartMs: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * The writes are push subscriptions, an admin's: signed in at each restart (the provider's keys
 * are new each time), the admin lists them, stores them without the anonymous creates' limit, and
 * removes any (the device keys a create answers are not kept across a restart).
 */
const subscription = (id: string) => ({ id, endpoint: `https://push.example.org/send/${id}`, keys: { p256dh: 'key', auth: 'secret' } });

async function lane(index: number, kills: number, build: string, lost: string[]): Promise<LaneFigures> {
  const path = join(mkdtempSync(join(tmpdir(), `circle-kill-${index}-`)), 'db.json');
  const figures: LaneFigures = { kills: 0, acknowledged: 0, inFlightDone: 0, inFlightNotDone: 0, restartMs: [] };
  // The model: the subscriptions the server acknowledged, in the order they were created (the seed has none).
  let present: string[] = [];
  let inFlight: Write | null = null;
  let next = 0;

  for (let cycle = 0; cycle <= kills; cycle++) {
    const started = performance.now();
    const server = await startServerProcess(['--persist', path], { DIST_DIR: build });
    if (cycle > 0) figures.restartMs.push(performance.now() - started);

    const admin = { authorization: (await signInAs(server.url, 'ada')).authorization };
    const listed = ((await (await fetch(`${server.url}/api/subscription`, { headers: admin })).json()) as { id: string }[])
      .map((n) => n.id)
      .sort();
    const expected = [...present].sort();
    const withInFlight =
      inFlight === null
        ? expected
        : inFlight.kind === 'create'
          ? [...present, inFlight.id].sort()
          : present.filter((id) => id !== inFlight!.id).sort();
    if (JSON.stringify(listed) === JSON.stringify(expected)) {
      if (inFlight) figures.inFlightNotDone++;
    } else if (JSON.stringify(listed) === JSON.stringify(withInFlight)) {
      figures.inFlightDone++;
      present = inFlight!.kind === 'create' ? [...present, inFlight!.id] : present.filter((id) => id !== inFlight!.id);
    } else {
      lost.push(
        `lane ${index}, after kill ${cycle}: expected ${expected.join(',')}${inFlight ? ` (± ${inFlight.kind} ${inFlight.id})` : ''}, found ${listed.join(',')}`,
      );
      present = listed;
    }
    inFlight = null;
    if (cycle === kills) {
      await server.kill('SIGTERM');
      break;
    }

    let killed = false;
    // Set off once the cycle's first write is acknowledged: every kill then has a write to keep,
    // however slow the machine (on a busy one, a kill set off at once often came before any).
    let killer: Promise<void> | undefined;
    while (!killed) {
      // Creates, and deletes of the oldest once the collection nears its 100 records.
      const write: Write = present.length >= 90 ? { kind: 'delete', id: present[0]! } : { kind: 'create', id: `L${index}-${next++}` };
      inFlight = write;
      try {
        const response =
          write.kind === 'create'
            ? await fetch(`${server.url}/api/subscription`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', ...admin },
                body: JSON.stringify(subscription(write.id)),
              })
            : await fetch(`${server.url}/api/subscription/${write.id}`, { method: 'DELETE', headers: admin });
        await response.arrayBuffer();
        if (response.status !== (write.kind === 'create' ? 201 : 204))
          throw new Error(`${write.kind} ${write.id} answered ${response.status}`);
      } catch (error) {
        if (killed) break;
        throw error;
      }
      // Acknowledged: the answer arrived, so the write must survive any kill from now on.
      present = write.kind === 'create' ? [...present, write.id] : present.filter((id) => id !== write.id);
      inFlight = null;
      figures.acknowledged++;
      killer ??= sleep(Math.random() * MAX_KILL_DELAY_MS).then(async () => {
        killed = true;
        await server.kill('SIGKILL');
      });
    }
    await killer;
    figures.kills++;
    // Whatever the moment of the kill, the file is a whole one.
    JSON.parse(readFileSync(path, 'utf8'));
  }
  return figures;
}

describe('--persist survives kill -9', () => {
  it(`keeps every acknowledged write over ${KILLS} kills at random moments, and the file always parses`, { timeout: 300_000 }, async () => {
    const build = tinyBuild();
    const lost: string[] = [];
    const started = performance.now();
    const lanes = await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i, Math.ceil(KILLS / LANES), build, lost)));
    const seconds = (performance.now() - started) / 1000;
    const sum = (pick: (f: LaneFigures) => number) => lanes.reduce((total, f) => total + pick(f), 0);
    const restarts = lanes.flatMap((f) => f.restartMs).sort((a, b) => a - b);
    console.log(
      `[persist] ${sum((f) => f.kills)} kills (SIGKILL) in ${seconds.toFixed(1)} s over ${LANES} servers; ` +
        `${sum((f) => f.acknowledged)} acknowledged writes, ${lost.length} lost; ` +
        `the write under way at a kill was found done ${sum((f) => f.inFlightDone)} times, not done ${sum((f) => f.inFlightNotDone)} times; ` +
        `restart to listening: median ${Math.round(restarts[Math.floor(restarts.length / 2)]!)} ms`,
    );
    expect(lost).toEqual([]);
    expect(sum((f) => f.kills)).toBeGreaterThanOrEqual(KILLS);
    expect(sum((f) => f.acknowledged)).toBeGreaterThan(KILLS);
  });
});

describe('npm run verify against a persisting server', () => {
  it('finds it conformant, and its file holds what it serves', { timeout: 240_000 }, async () => {
    const build = tinyBuild();
    writeFileSync(join(build, 'assets/ui-config.json'), JSON.stringify({ appTitle: 'Circle', logLevel: 3 }));
    const path = join(mkdtempSync(join(tmpdir(), 'circle-verify-persist-')), 'db.json');
    const server = await startServerProcess(['--persist', path], { DIST_DIR: build });
    try {
      const ada = (await signInAs(server.url, 'ada')).authorization;
      const members = [
        '--header',
        `Authorization: ${ada}`,
        '--other-header',
        `Authorization: ${(await signInAs(server.url, 'grace')).authorization}`,
      ];
      const run = await runVerifyProcess(['--base-url', `${server.url}/api`, ...members, '--seed', '5', '--runs', '10', '--quiet']);
      expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);
      const file = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      for (const name of ['accounts', 'notifications', 'subscription', 'symbols']) {
        const served = (await (await fetch(`${server.url}/api/${name}`, { headers: { authorization: ada } })).json()) as { id: string }[];
        expect((file[name] as { id: string }[]).map((r) => r.id).sort(), name).toEqual(served.map((r) => r.id).sort());
      }
    } finally {
      await server.kill('SIGTERM');
    }
  });
});
