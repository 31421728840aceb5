import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of a process and everything it started, read from /proc (Linux), in milliseconds. A
 * Playwright worker runs its mock server in-process and is the parent of its Chromium, whose
 * renderers are reaped inside the tree: the worker's tree is what one of its tests costs the
 * machine. Wall time says how busy the machine was; this says what the test itself took.
 */

/** Linux reports process times in USER_HZ ticks, 100 a second on every architecture Node runs on. */
const TICK_MS = 10;

interface Stat {
  ppid: number;
  ticks: number;
}

function stat(pid: string): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name sits in parentheses and may hold spaces: the fields start after its last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // From the state field on: ppid is the 2nd; utime, stime, cutime and cstime the 12th to the 15th.
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    return { ppid: Number(fields[1]), ticks };
  } catch {
    // The process ended between the listing and the read.
    return null;
  }
}

/** The tree's CPU time so far (its own, its live descendants' and the reaped ones'), or null off Linux. */
export function treeCpuMs(root: number = process.pid): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const stats = new Map<number, Stat>();
  for (const pid of pids) {
    const s = stat(pid);
    if (s) stats.set(Number(pid), s);
  }
  const children = new Map<number, number[]>();
  for (const [pid, s] of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  let ticks = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    ticks += stats.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return ticks * TICK_MS;
}
