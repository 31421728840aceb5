// @vitest-environment node
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tinyBuild } from '../testkit/index.ts';
import { closeAll, openCount, track } from './shutdown';

describe('track and closeAll', () => {
  it('closes what is open, once, and not what was closed and forgotten', async () => {
    const closed: string[] = [];
    const forgetA = track(() => closed.push('a'));
    track(async () => {
      closed.push('b');
    });
    forgetA();
    expect(openCount()).toBe(1);
    await closeAll();
    await closeAll();
    expect(closed).toEqual(['b']);
    expect(openCount()).toBe(0);
  });

  it('closes the others when one fails or never ends', async () => {
    const closed: string[] = [];
    track(() => {
      throw new Error('already gone');
    });
    track(() => new Promise(() => undefined));
    track(() => closed.push('c'));
    await closeAll(50);
    expect(closed).toEqual(['c']);
  });
});

/** Linux's process table: each process's parent and command line. */
function processes(): { pid: number; ppid: number; command: string }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        // The command's name is in parentheses and may hold spaces: the fields after it are plain.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (fields[0] === 'Z') return [];
        const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return [{ pid: Number(name), ppid: Number(fields[1]), command }];
      } catch {
        // Gone between the listing and the read.
        return [];
      }
    });
}

/** The browser processes started under `root`, at any depth. */
function browsersUnder(root: number): number[] {
  const all = processes();
  const found = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all)
      if (found.has(p.ppid) && !found.has(p.pid)) {
        found.add(p.pid);
        grew = true;
      }
  }
  return all.filter((p) => p.pid !== root && found.has(p.pid) && /chrom(e|ium)/.test(p.command)).map((p) => p.pid);
}

const alive = (pid: number) => processes().some((p) => p.pid === pid);

async function until<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await new Promise((r) => setTimeout(r, 100))) {
    const value = probe();
    if (value !== undefined) return value;
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

/**
 * Starts the bench on a build without a screen (so that its browser stays at work), waits for its
 * browser, stops it with `signal`, and gives back how it ended and which of its browser processes
 * are still running.
 */
async function stopBenchWithBrowser(part: string, signal: NodeJS.Signals) {
  const bench: ChildProcess = spawn(
    process.execPath,
    [resolve(ROOT, 'bench/run.ts'), '--dist', tinyBuild(), `--only=${part}`, '--routes=/', '--quick'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  bench.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    bench.once('exit', (code, sig) => done({ code, signal: sig })),
  );
  let seen: number[] = [];
  try {
    await until('the bench starts a browser', () => (browsersUnder(bench.pid!).length > 0 ? true : undefined), 90_000);
    // Its helper processes (zygote, GPU, renderer) start just after it.
    await new Promise((r) => setTimeout(r, 1000));
    seen = browsersUnder(bench.pid!);
    bench.kill(signal);
    const end = await Promise.race([
      exited,
      new Promise<never>((_, fail) => setTimeout(() => fail(new Error('the bench did not exit')), 30_000)),
    ]);
    // A process the bench killed may take a moment to be reaped.
    const left = await until(
      'its browser processes end',
      () => {
        const running = seen.filter(alive);
        return running.length === 0 ? running : undefined;
      },
      5000,
    ).catch(() => seen.filter(alive));
    return { ...end, seen, left, stderr };
  } finally {
    bench.kill('SIGKILL');
    for (const pid of seen.filter(alive)) process.kill(pid, 'SIGKILL');
  }
}

describe.skipIf(process.platform !== 'linux' || !existsSync('/proc/self/stat'))('a bench stopped part way', () => {
  it('SIGTERM during a Playwright measure closes its Chromium and exits 143', { timeout: 150_000 }, async () => {
    const stopped = await stopBenchWithBrowser('first-load', 'SIGTERM');
    expect(stopped.seen.length).toBeGreaterThan(0);
    expect(stopped.left).toEqual([]);
    expect(stopped, stopped.stderr).toMatchObject({ code: 143, signal: null });
    expect(stopped.stderr).toContain('bench: SIGTERM: closing the');
  });

  it('SIGINT during Lighthouse closes the Chrome it launched in a process group of its own, and exits 130', {
    timeout: 150_000,
  }, async () => {
    const stopped = await stopBenchWithBrowser('lighthouse', 'SIGINT');
    expect(stopped.seen.length).toBeGreaterThan(0);
    expect(stopped.left).toEqual([]);
    expect(stopped).toMatchObject({ code: 130, signal: null });
  });
});
