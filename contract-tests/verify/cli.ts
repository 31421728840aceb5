/**
 * `npm run verify -- --base-url URL`: checks any backend against openapi.yaml. Without --base-url
 * it starts the embedded mock and checks that. Exit codes: 0 conformant, 1 not conformant,
 * 2 could not run (bad arguments, an unreadable or invalid spec, an unreachable URL), with a
 * one-line reason on stderr. See the README, "Verify your backend".
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OpenApiSpec, SpecError } from '../../mocks/openapi/index.ts';
import { loadSpec } from '../../mocks/spec.node.ts';
import { HELP, parseArgs, type Options } from './args.ts';
import { startEmbeddedMock, type EmbeddedMock } from './mock.ts';
import { startProgress } from './progress.ts';
import { consoleReport } from './report/console.ts';
import { htmlReport } from './report/html.ts';
import { jsonReport } from './report/json.ts';
import { junitReport } from './report/junit.ts';
import { runVerify } from './run.ts';
import { SAFE_METHODS } from './session.ts';
import { describeFetchError, Target } from './target.ts';

export const EXIT = { conformant: 0, notConformant: 1, couldNotRun: 2 } as const;

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether progress goes to a terminal (an updating line) or a log (occasional lines); null: none. */
  progress: NodeJS.WriteStream | null;
}

const PREFLIGHT_TIMEOUT_MS = 10_000;

/** A one-line reason: the first line of a message, without a stack. */
const oneLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/** Any HTTP answer from the server means it can be verified; no answer means it cannot. */
async function preflight(spec: OpenApiSpec, target: Target): Promise<string | null> {
  const op = spec.operations.find((o) => SAFE_METHODS.includes(o.method) && !o.root && !o.params.some((p) => p.in === 'path'));
  const url = op ? target.url(op) : target.bases.api;
  try {
    const response = await fetch(url, {
      headers: Object.fromEntries(target.injectedHeaders),
      signal: AbortSignal.timeout(PREFLIGHT_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    return null;
  } catch (error) {
    return `cannot reach ${url}: ${describeFetchError(error, PREFLIGHT_TIMEOUT_MS)}`;
  }
}

function writeReport(file: string, text: string): string | null {
  try {
    writeFileSync(file, text);
    return null;
  } catch (error) {
    return `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? oneLine(error)}`;
  }
}

export async function main(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    io.err(`verify: ${parsed.message}\n`);
    return EXIT.couldNotRun;
  }
  const options: Options = parsed.options;
  if (options.help) {
    io.out(`${HELP}\n`);
    return EXIT.conformant;
  }
  let spec: OpenApiSpec;
  try {
    spec = new OpenApiSpec(loadSpec(resolve(options.spec)), { detailed: true, name: options.spec });
  } catch (error) {
    io.err(`verify: cannot use the spec: ${oneLine(error)}\n`);
    return EXIT.couldNotRun;
  }
  if (spec.operations.length === 0) {
    io.err(`verify: cannot use the spec: ${options.spec} has no operations\n`);
    return EXIT.couldNotRun;
  }

  let mock: EmbeddedMock | null = null;
  try {
    let baseUrl = options.baseUrl;
    if (baseUrl === undefined) {
      try {
        mock = await startEmbeddedMock();
      } catch (error) {
        io.err(`verify: cannot start the embedded mock: ${oneLine(error)}\n`);
        return EXIT.couldNotRun;
      }
      baseUrl = mock.baseUrl;
    }
    const target = new Target({
      baseUrl,
      headers: options.headers,
      ...(options.rate === undefined ? {} : { rate: options.rate }),
      ...(options.maxRequests === undefined ? {} : { maxRequests: options.maxRequests }),
    });
    const unreachable = await preflight(spec, target);
    if (unreachable) {
      io.err(`verify: ${unreachable}\n`);
      return EXIT.couldNotRun;
    }
    if (!options.quiet) {
      io.out(
        `verify: ${baseUrl}${mock ? ' (the embedded mock)' : ''} against ${options.spec}; seed ${options.seed}, ${options.runs} runs per check${options.readOnly ? ', read-only' : ''}\n`,
      );
    }
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    let stopProgress = () => {};
    const results = await runVerify(
      spec,
      target,
      { seed: options.seed, runs: options.runs, readOnly: options.readOnly, ownServer: mock !== null },
      (session) => {
        if (!options.quiet && io.progress) stopProgress = startProgress(session, io.progress).stop;
      },
    ).finally(() => stopProgress());
    const run = results.finish(
      {
        baseUrl,
        embedded: mock !== null,
        spec: options.spec,
        seed: options.seed,
        runs: options.runs,
        readOnly: options.readOnly,
        startedAt,
        ms: Date.now() - started,
      },
      target.sent,
    );
    io.out(consoleReport(run, { quiet: options.quiet, injected: options.headers.map(([name]) => name) }));
    for (const [file, render] of [
      [options.junit, junitReport],
      [options.json, jsonReport],
      [options.html, htmlReport],
    ] as const) {
      if (file === undefined) continue;
      const problem = writeReport(file, render(run));
      if (problem) {
        io.err(`verify: ${problem}\n`);
        return EXIT.couldNotRun;
      }
    }
    return run.summary.failed > 0 ? EXIT.notConformant : EXIT.conformant;
  } catch (error) {
    io.err(`verify: ${error instanceof SpecError ? 'cannot use the spec: ' : 'internal error: '}${oneLine(error)}\n`);
    if (process.env.VERIFY_DEBUG) io.err(`${error instanceof Error ? error.stack : String(error)}\n`);
    return EXIT.couldNotRun;
  } finally {
    await mock?.close();
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const code = await main(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    progress: process.stderr,
  });
  process.exitCode = code;
}
