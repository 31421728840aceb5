/**
 * `npm run verify -- --base-url URL`: checks any backend against openapi.yaml. Without --base-url
 * it starts the embedded mock and checks that. Exit codes: 0 conformant, 1 not conformant,
 * 2 could not run (bad arguments, an unreadable or invalid spec, an unreachable URL, and anything
 * that goes wrong inside verify itself: a module that does not load, a bug), with a one-line
 * reason on stderr. See docs/verify.md.
 *
 * This entry point imports nothing of verify up front: the run (./main.ts) is loaded inside
 * `main`, so that even a module that fails to load is "could not run", not a crash.
 */
import { enableCompileCache } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, type Io, oneLine } from './io.ts';

export { EXIT, type Io } from './io.ts';

function internalError(io: Pick<Io, 'err'>, error: unknown): number {
  io.err(`verify: internal error: ${oneLine(error)}\n`);
  if (process.env.VERIFY_DEBUG) io.err(`${error instanceof Error ? error.stack : String(error)}\n`);
  return EXIT.couldNotRun;
}

export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const { run } = await import('./main.ts');
    return await run(argv, io);
  } catch (error) {
    return internalError(io, error);
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  // Node keeps the modules it compiled (and the types it stripped) on the disk for the next start:
  // loading verify and the embedded mock is otherwise a good part of a short run. Nothing changes
  // when the cache cannot be written.
  enableCompileCache();
  // An error no one awaits (a callback's, a stray promise's) ends the run the same way.
  const crash = (error: unknown) => {
    internalError({ err: (text) => process.stderr.write(text) }, error);
    process.exit(EXIT.couldNotRun);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.exitCode = await main(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    progress: process.stderr,
  });
}
