/**
 * verify as a GitHub Actions step (verify/action.yml): the action's inputs arrive as CIRCLE_VERIFY_*
 * variables. The header values are masked in the log before anything is sent, the run's verdict and
 * console report go to the job summary, and the verdict and report paths to the step's outputs.
 * The exit code is verify's own: 0 conformant, 1 not conformant, 2 could not run.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, type Io, main } from './cli.ts';

export interface StepInputs {
  baseUrl: string;
  spec: string;
  headers: string[];
  otherHeaders: string[];
  adminHeaders: string[];
  refusedHeaders: string[];
  junit: string;
  html: string;
  json: string;
  args: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** One header per line; blank lines and surrounding spaces do not count. */
const lines = (value: string | undefined): string[] =>
  (value ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

export function readInputs(env: Env): StepInputs | { problem: string } {
  const baseUrl = (env.CIRCLE_VERIFY_BASE_URL ?? '').trim();
  if (baseUrl === '') return { problem: 'the base-url input is empty: give the API base URL of the server to check' };
  return {
    baseUrl,
    spec: (env.CIRCLE_VERIFY_SPEC ?? '').trim(),
    headers: lines(env.CIRCLE_VERIFY_HEADERS),
    otherHeaders: lines(env.CIRCLE_VERIFY_OTHER_HEADERS),
    adminHeaders: lines(env.CIRCLE_VERIFY_ADMIN_HEADERS),
    refusedHeaders: lines(env.CIRCLE_VERIFY_REFUSED_HEADERS),
    junit: (env.CIRCLE_VERIFY_JUNIT ?? '').trim(),
    html: (env.CIRCLE_VERIFY_HTML ?? '').trim(),
    json: (env.CIRCLE_VERIFY_JSON ?? '').trim(),
    // No quoting: an option's value has no spaces (the inputs above carry the ones that may).
    args: (env.CIRCLE_VERIFY_ARGS ?? '').split(/\s+/).filter(Boolean),
  };
}

/** verify's command line for these inputs; a relative path is the workspace's. */
export function verifyArgs(inputs: StepInputs, workspace: string): string[] {
  const file = (path: string) => resolve(workspace, path);
  return [
    '--base-url',
    inputs.baseUrl,
    ...(inputs.spec ? ['--spec', file(inputs.spec)] : []),
    ...inputs.headers.flatMap((h) => ['--header', h]),
    ...inputs.otherHeaders.flatMap((h) => ['--other-header', h]),
    ...inputs.adminHeaders.flatMap((h) => ['--admin-header', h]),
    ...inputs.refusedHeaders.flatMap((h) => ['--refused-header', h]),
    ...(inputs.junit ? ['--junit', file(inputs.junit)] : []),
    ...(inputs.html ? ['--html', file(inputs.html)] : []),
    ...(inputs.json ? ['--json', file(inputs.json)] : []),
    ...inputs.args,
  ];
}

/** The values of the headers (tokens, keys): GitHub hides each in the log once told. */
export function maskCommands(inputs: StepInputs): string[] {
  const values = [...inputs.headers, ...inputs.otherHeaders, ...inputs.adminHeaders, ...inputs.refusedHeaders]
    .map((h) => h.slice(h.indexOf(':') + 1).trim())
    .flatMap((value) => [value, ...value.split(/\s+/).filter((part) => part.length >= 8)]);
  return [...new Set(values)].filter(Boolean).map((value) => `::add-mask::${value}`);
}

const VERDICT: Record<number, string> = {
  [EXIT.conformant]: '✅ conformant',
  [EXIT.notConformant]: '❌ not conformant',
  [EXIT.couldNotRun]: '⚠️ could not run',
};

/** The job summary: the verdict, the server and document checked, then verify's own report. */
export function summaryOf(code: number, inputs: StepInputs | null, report: string): string {
  const what = inputs ? ` — \`${inputs.baseUrl}\` against \`${inputs.spec || 'openapi.yaml'}\`` : '';
  // A report longer than GitHub's summary allows is cut from the front: the verdict line is last.
  const text = report.length > 60_000 ? `…\n${report.slice(-60_000)}` : report;
  return `### verify: ${VERDICT[code] ?? `exit ${code}`}${what}\n\n\`\`\`text\n${text.trimEnd()}\n\`\`\`\n`;
}

async function runStep(env: Env, io: Io): Promise<number> {
  const inputs = readInputs(env);
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
  let code: number;
  let report = '';
  if ('problem' in inputs) {
    report = `verify: ${inputs.problem}\n`;
    io.err(report);
    code = EXIT.couldNotRun;
  } else {
    for (const command of maskCommands(inputs)) io.out(`${command}\n`);
    // A report may go to a folder the workflow has not made yet.
    for (const report of [inputs.junit, inputs.html, inputs.json]) {
      if (report) mkdirSync(dirname(resolve(workspace, report)), { recursive: true });
    }
    const both = (write: (text: string) => void) => (text: string) => {
      report += text;
      write(text);
    };
    code = await main(verifyArgs(inputs, workspace), { out: both(io.out), err: both(io.err), progress: null });
  }
  const known = 'problem' in inputs ? null : inputs;
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summaryOf(code, known, report));
  if (env.GITHUB_OUTPUT) {
    const outputs = [
      `conformant=${code === EXIT.conformant}`,
      `exit-code=${code}`,
      ...(known?.junit ? [`junit=${resolve(workspace, known.junit)}`] : []),
      ...(known?.html ? [`html=${resolve(workspace, known.html)}`] : []),
      ...(known?.json ? [`json=${resolve(workspace, known.json)}`] : []),
    ];
    appendFileSync(env.GITHUB_OUTPUT, `${outputs.join('\n')}\n`);
  }
  return code;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  process.exitCode = await runStep(process.env, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    progress: null,
  });
}
