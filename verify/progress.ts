/**
 * The progress of a run on stderr: on a terminal, one line updated in place; otherwise a line every
 * few seconds, so that a CI log shows the run is alive without drowning in it.
 */
import type { Session } from './session.ts';

export interface Progress {
  stop(): void;
}

export function startProgress(session: Session, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  const line = () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    return `verify: ${session.target.sent} requests, ${seconds} s — ${session.activity}`;
  };
  if (stream.isTTY) {
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
  const timer = setInterval(() => stream.write(`${line()}\n`), 5000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
