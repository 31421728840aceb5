/**
 * The progress of a run on stderr. On a terminal, one line updated in place with what is being
 * sent now; in a log (CI) or with --quiet, one line per operation as its checks end, and per
 * stateful model as its sequences end, so that a log shows where the time went and that the run is
 * alive. A log also gets a line every few seconds while one operation takes long.
 */
import type { OperationSpec } from '../openapi-kit/index.ts';
import type { Phase, Session } from './session.ts';

export interface Progress {
  stop(): void;
}

const HEARTBEAT_MS = 5000;

/** One finished operation (or model) in a line: what it sent, how long it took, how it stands. */
function doneLine(session: Session, ops: readonly OperationSpec[], phase: Phase, ms: number): string {
  if (phase === 'links') {
    const links = session.results.linkTally();
    return `verify: links: ${links.followed} of ${links.declared} followed in ${(ms / 1000).toFixed(1)} s, ${links.failures === 0 ? 'no failure' : `${links.failures} failing`}`;
  }
  const tallies = ops.map((op) => session.results.tally(op, phase));
  const requests = tallies.reduce((n, t) => n + t.requests, 0);
  const failures = tallies.reduce((n, t) => n + t.failures, 0);
  const unexercised = [...new Set(tallies.flatMap((t) => t.unexercised))];
  const what = phase === 'checks' ? `${ops[0]!.id} (${ops[0]!.method} ${ops[0]!.path})` : `stateful ${ops.map((o) => o.id).join(', ')}`;
  const verdict = failures > 0 ? `${failures} failure${failures === 1 ? '' : 's'}` : 'no failure';
  const left = unexercised.length > 0 ? `; ${unexercised.join('; ')}` : '';
  return `verify: ${what}: ${requests} requests in ${(ms / 1000).toFixed(1)} s, ${verdict}${left}`;
}

export function startProgress(session: Session, stream: NodeJS.WriteStream = process.stderr, { quiet = false } = {}): Progress {
  const started = Date.now();
  const line = () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    return `verify: ${session.target.sent} requests, ${seconds} s — ${session.activity}`;
  };
  if (stream.isTTY && !quiet) {
    const width = () => Math.max(20, (stream.columns ?? 80) - 1);
    const timer = setInterval(() => stream.write(`\r\x1b[K${line().slice(0, width())}`), 150);
    timer.unref();
    return {
      stop() {
        clearInterval(timer);
        stream.write('\r\x1b[K');
      },
    };
  }
  let last = Date.now();
  session.onDone = (ops, phase, ms) => {
    last = Date.now();
    stream.write(`${doneLine(session, ops, phase, ms)}\n`);
  };
  // A heartbeat only while one operation runs long: the lines per operation show the rest.
  const timer = setInterval(() => {
    if (Date.now() - last < HEARTBEAT_MS) return;
    last = Date.now();
    stream.write(`${line()}\n`);
  }, 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      session.onDone = undefined;
    },
  };
}
