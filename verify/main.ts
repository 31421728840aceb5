/**
 * One run of `npm run verify`, from the arguments to the exit code (the entry point is ./cli.ts):
 * reads the spec, starts the embedded mock when no --base-url is given, checks the server is there,
 * runs the checks (./run.ts) and writes the reports.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OpenApiSpec, SpecError } from '../openapi-kit/index.ts';
import { loadSpecCached } from '../openapi-kit/node.ts';
import { HELP, parseArgs, type Options } from './args.ts';
import { EXIT, type Io, oneLine } from './io.ts';
import type { EmbeddedMock } from './mock.ts';
import { startProgress } from './progress.ts';
import { consoleReport } from './report/console.ts';
import { htmlReport } from './report/html.ts';
import { jsonReport } from './report/json.ts';
import { junitReport } from './report/junit.ts';
import { runVerify } from './run.ts';
import { SAFE_METHODS } from './session.ts';
import { describeFetchError } from './http-attempt.ts';
import { Target } from './target.ts';

const PREFLIGHT_TIMEOUT_MS = 10_000;

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

export async function run(argv: readonly string[], io: Io): Promise<number> {
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
    spec = new OpenApiSpec(loadSpecCached(resolve(options.spec)), { detailed: true, name: options.spec });
  } catch (error) {
    io.err(`verify: cannot use the spec: ${oneLine(error)}\n`);
    return EXIT.couldNotRun;
  }
  if (spec.operations.length === 0) {
    io.err(`verify: cannot use the spec: ${options.spec} has no operations\n`);
    return EXIT.couldNotRun;
  }

  let mock: EmbeddedMock | null = null;
  let target: Target | null = null;
  try {
    let baseUrl = options.baseUrl;
    let { headers, otherHeaders, adminHeaders, refusedHeaders } = options;
    if (baseUrl === undefined) {
      try {
        // Loaded only when needed: a URL to check does not depend on the mock's code.
        const { startEmbeddedMock } = await import('./mock.ts');
        mock = await startEmbeddedMock();
      } catch (error) {
        io.err(`verify: cannot start the embedded mock: ${oneLine(error)}\n`);
        return EXIT.couldNotRun;
      }
      baseUrl = mock.baseUrl;
      // The embedded mock's own members, unless credentials were given.
      if (headers.length === 0) headers = mock.headers;
      if (otherHeaders.length === 0) otherHeaders = mock.otherHeaders;
      if (adminHeaders.length === 0) adminHeaders = mock.adminHeaders;
      if (refusedHeaders.length === 0) refusedHeaders = mock.refusedHeaders;
    }
    target = new Target({
      baseUrl,
      headers,
      otherHeaders,
      adminHeaders,
      refusedHeaders,
      ...(options.rate === undefined ? {} : { rate: options.rate }),
      ...(options.maxRequests === undefined ? {} : { maxRequests: options.maxRequests }),
      timeoutMs: options.requestTimeout * 1000,
      timeLimitMs: options.timeLimit * 1000,
    });
    const unreachable = await preflight(spec, target);
    if (unreachable) {
      io.err(`verify: ${unreachable}\n`);
      return EXIT.couldNotRun;
    }
    if (!options.quiet) {
      io.out(
        `verify: ${baseUrl}${mock ? ' (the embedded mock)' : ''} against ${options.spec}; seed ${options.seed}, ${options.runs} runs per check${options.concurrency > 1 ? `, ${options.concurrency} resources at a time` : ''}${options.readOnly ? ', read-only' : ''}\n`,
      );
    }
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    let stopProgress = () => {};
    const results = await runVerify(
      spec,
      target,
      {
        seed: options.seed,
        runs: options.runs,
        readOnly: options.readOnly,
        ownServer: mock !== null,
        freshServer: mock !== null || options.freshServer,
        concurrency: options.concurrency,
        operationTimeoutMs: options.operationTimeout * 1000,
      },
      (session) => {
        if (io.progress) stopProgress = startProgress(session, io.progress, { quiet: options.quiet }).stop;
      },
    ).finally(() => stopProgress());
    if (target.stopReason) results.notes.push(`stopped early: ${target.stopReason}; what was left is reported as not exercised`);
    if (target.resends > 0)
      results.notes.push(
        `${target.resends} request(s) sent again: the server closed a kept-alive connection as they went out, before any byte of an answer (nothing was processed)`,
      );
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
    io.out(consoleReport(run, { quiet: options.quiet }));
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
    target?.close();
    await mock?.close();
  }
}
