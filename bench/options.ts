/**
 * The options of `npm run bench`. Plain TypeScript without imports: read and checked before
 * anything starts (no build, no browser, no server for --help or a mistyped option).
 */

/** What the bench measures, in the order it measures them. */
export const PARTS = ['first-load', 'lighthouse', 'long-tasks', 'warm', 'load', 'mock-throughput', 'verify'] as const;
export type Part = (typeof PARTS)[number];

export interface BenchOptions {
  /** One Lighthouse run per route (not three) and shorter load tests. */
  quick: boolean;
  /** Build into dist/ first (default), or measure the build already there. */
  build: boolean;
  /** The build to measure: dist/ unless --dist names another (which is not built). */
  dist: string;
  /** The routes Lighthouse and the long tasks are measured on; null: every prerendered route. */
  routes: string[] | null;
  /** The parts to measure; a run of them all writes bench/results.json and the report. */
  parts: ReadonlySet<Part>;
}

/** Bad flags or values: one line for stderr, exit code 2. */
export class UsageError extends Error {}

interface OptionSpec {
  flag: string;
  /** The value's placeholder; none for a switch. */
  value?: string;
  help: string;
}

export const OPTIONS: readonly OptionSpec[] = [
  { flag: '--quick', help: 'one Lighthouse run per route instead of three, and shorter load tests' },
  { flag: '--no-build', help: 'measure the build already in dist/ instead of building first' },
  { flag: '--dist', value: 'DIR', help: 'measure the build in DIR (implies --no-build)' },
  {
    flag: '--routes',
    value: 'LIST',
    help: 'comma-separated routes for Lighthouse and the long tasks (default: every prerendered route)',
  },
  { flag: '--only', value: 'PARTS', help: `comma-separated parts to measure: ${PARTS.join(', ')}` },
  { flag: '--mock-throughput', help: 'the same as --only=mock-throughput' },
];

export function usage(): string {
  const rows = OPTIONS.map((o) => [`${o.flag}${o.value ? `=${o.value}` : ''}`, o.help] as const);
  const width = Math.max(...rows.map((r) => r[0].length), '--help'.length);
  return [
    'Usage: npm run bench -- [options]',
    '',
    'Builds for production, serves the build with the mock API and measures it: bytes, Lighthouse on',
    'each prerendered route (its largest paint and how long after the first it comes), long tasks at 4x',
    "CPU, warm loads, the server under load, verify's time against the mock and Prism's. Lighthouse and",
    "the long tasks also measure the machine's floor: a bare page, and one with a render-blocking script,",
    "served with the app's headers. Prints a table with each figure beside its goal and the floor's; a",
    'run of every part also writes bench/results.json and reports/bench/index.html.',
    '',
    ...rows.map(([flag, help]) => `  ${flag.padEnd(width)}  ${help}`),
    `  ${'--help'.padEnd(width)}  this help`,
    '',
    'Exit code 1 when a budget is missed (a largest paint more than 50 ms after the first one as the page',
    "painted them, the cold visit's bytes over budgets.json's coldVisitGzip), 2 for a bad option. Stopped",
    'by SIGINT or SIGTERM, it closes the browsers and servers it started.',
  ].join('\n');
}

function list(raw: string, flag: string): string[] {
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value`);
  return items;
}

/** Reads the flags: `help` when --help was asked for; a UsageError for anything amiss. */
export function parseBenchArgs(argv: readonly string[]): { help: true } | { help: false; options: BenchOptions } {
  let quick = false;
  let build = true;
  let dist = 'dist';
  let routes: string[] | null = null;
  let parts: Set<Part> | null = null;
  const only = (wanted: readonly Part[]) => {
    parts ??= new Set();
    for (const part of wanted) parts.add(part);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const spec = OPTIONS.find((o) => o.flag === flag);
    if (!spec) {
      throw new UsageError(
        arg.startsWith('-') ? `unknown option '${flag}' (--help lists them)` : `unexpected argument '${arg}' (--help lists the options)`,
      );
    }
    if (spec.value === undefined && inline !== undefined) throw new UsageError(`${flag} takes no value`);
    let value: string | undefined;
    if (spec.value !== undefined) {
      value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--')))
        throw new UsageError(`${flag} needs a value (${spec.value})`);
    }
    switch (flag) {
      case '--quick':
        quick = true;
        break;
      case '--no-build':
        build = false;
        break;
      case '--dist':
        dist = value!;
        build = false;
        break;
      case '--mock-throughput':
        only(['mock-throughput']);
        break;
      case '--routes':
        routes = list(value!, flag).map((route) => {
          if (!route.startsWith('/')) throw new UsageError(`--routes: a route starts with '/', not '${route}'`);
          return route;
        });
        break;
      case '--only':
        only(
          list(value!, flag).map((part) => {
            if (!(PARTS as readonly string[]).includes(part))
              throw new UsageError(`--only: no part '${part}' (parts: ${PARTS.join(', ')})`);
            return part as Part;
          }),
        );
        break;
    }
  }
  return { help: false, options: { quick, build, dist, routes, parts: parts ?? new Set(PARTS) } };
}

/** Every part measured: what a run must cover to write the results file and the report. */
export function isFullRun(options: BenchOptions): boolean {
  return options.routes === null && options.dist === 'dist' && PARTS.every((part) => options.parts.has(part));
}
