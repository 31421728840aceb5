/** The command line of `npm run verify`: options in, a typed Options or a one-line reason out. */

export interface Options {
  /** The API base URL (the resolved `servers` URL); undefined: start the embedded mock and verify it. */
  baseUrl?: string;
  spec: string;
  junit?: string;
  json?: string;
  html?: string;
  seed: number;
  /** Sent with every request, e.g. `Authorization: Bearer …` (but those checking the 401 of a secured operation). */
  headers: Array<[name: string, value: string]>;
  /** The credentials of a second member: sent instead of `headers` by the checks that another member is refused (403). */
  otherHeaders: Array<[name: string, value: string]>;
  /**
   * An admin's credentials: sent instead of `headers` to the operations whose security names a
   * role (`bearer: [admin]`), which `headers` (a member's) must then be refused (403).
   */
  adminHeaders: Array<[name: string, value: string]>;
  /**
   * Credentials the server must refuse, each a header sent alone instead of `headers` (an expired
   * token, one revoked, one for another audience, an ID token): every secured operation answers 401.
   */
  refusedHeaders: Array<[name: string, value: string]>;
  /** Safe methods only (GET, HEAD, OPTIONS, TRACE), for a production server. */
  readOnly: boolean;
  /** The server was started for this run: no request before it counts against a rate limit. */
  freshServer: boolean;
  maxRequests?: number;
  /** Requests per second at most. */
  rate?: number;
  /** Generated requests per operation and check; stateful sequences per resource. */
  runs: number;
  /** How many resources' single exchanges go side by side. */
  concurrency: number;
  /** Seconds a request may wait for its whole answer. */
  requestTimeout: number;
  /** Seconds an operation's checks (and each stateful model) may take before the rest is reported as not exercised. */
  operationTimeout: number;
  /** Seconds the whole run may take before what is left is reported as not exercised (clean-up is still sent). */
  timeLimit: number;
  quiet: boolean;
  help: boolean;
}

export const DEFAULT_RUNS = 25;
export const DEFAULT_REQUEST_TIMEOUT_S = 10;
export const DEFAULT_OPERATION_TIMEOUT_S = 60;
export const DEFAULT_TIME_LIMIT_S = 600;
const DEFAULT_SPEC = 'openapi.yaml';

export type Parsed = { ok: true; options: Options } | { ok: false; message: string };

export const HELP = `Usage: npm run verify -- [--base-url URL] [options]

Checks a running backend against openapi.yaml: every operation, every answer (status, Content-Type,
required headers, body schema), generated valid and invalid input, the limits, and stateful
sequences of the collections, the records each caller has one of and the links. Without --base-url it starts the embedded mock.

Options:
  --base-url URL      API base URL, the resolved servers URL (e.g. http://127.0.0.1:8080/api)
  --spec FILE         the OpenAPI document (default ${DEFAULT_SPEC})
  --junit FILE        write a JUnit XML report (one testcase per operation and check)
  --json FILE         write the results as JSON
  --html FILE         write a small HTML page: coverage matrix and failures
  --seed N            replay a run (the seed is printed at the start of every run)
  --header "N: v"     send this header with every request (repeatable), e.g. authentication;
                      secured operations are also sent without these, and must answer 401
  --other-header "N: v"
                      a second member's credentials (repeatable): the first member's own
                      record (x-one-per-caller) and its file must answer this member 403
  --admin-header "N: v"
                      an admin's credentials (repeatable), sent to the operations whose security
                      names a role (bearer: [admin]); each of them must then answer 403 to the
                      --header member and 401 without credentials. Without it those operations
                      get the --header headers and the 403 is not checked
  --refused-header "N: v"
                      credentials the server must refuse (repeatable, each sent alone): an
                      expired token, a revoked one, one for another audience, an ID token;
                      every secured operation must answer each with 401
  --read-only         send safe methods only (GET, HEAD, OPTIONS): for a production server
  --fresh-server      the server was started for this run (a CI job's own): a stated rate
                      limit must then let its N through (implied without --base-url)
  --max-requests N    send at most N requests (clean-up requests are always sent)
  --rate N            send at most N requests per second
  --runs N            generated requests per operation and check (default ${DEFAULT_RUNS})
  --concurrency N     check up to N resources side by side (default 1); each resource's
                      operations, and the stateful sequences, keep their order, and a seed
                      replays the same requests per operation at any N
  --request-timeout S seconds a request may wait for its whole answer (default ${DEFAULT_REQUEST_TIMEOUT_S});
                      a request past it is a failure of its operation
  --operation-timeout S
                      seconds one operation's checks, and one stateful model, may take
                      (default ${DEFAULT_OPERATION_TIMEOUT_S}); what is left is reported as not exercised
  --time-limit S      seconds the whole run may take (default ${DEFAULT_TIME_LIMIT_S}); what is left is
                      reported as not exercised, and clean-up is still sent
  --quiet             print only one line per operation, the failures and the summary
  --help              print this help

Exit codes: 0 conformant, 1 not conformant, 2 could not run.`;

const VALUE_OPTIONS = new Set([
  '--base-url',
  '--spec',
  '--junit',
  '--json',
  '--html',
  '--seed',
  '--header',
  '--other-header',
  '--admin-header',
  '--refused-header',
  '--max-requests',
  '--rate',
  '--runs',
  '--concurrency',
  '--request-timeout',
  '--operation-timeout',
  '--time-limit',
]);
const FLAG_OPTIONS = new Set(['--read-only', '--fresh-server', '--quiet', '--help']);

/** The options that take a whole number of at least 1, and the field each sets. */
const WHOLE_NUMBER_OPTIONS = {
  '--max-requests': 'maxRequests',
  '--runs': 'runs',
  '--concurrency': 'concurrency',
  '--rate': 'rate',
  '--request-timeout': 'requestTimeout',
  '--operation-timeout': 'operationTimeout',
  '--time-limit': 'timeLimit',
} as const satisfies Record<string, keyof Options>;

function positiveInteger(name: string, raw: string, min = 1): number | string {
  if (!/^\d+$/.test(raw)) return `${name} takes a whole number, not '${raw}'`;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) return `${name} must be at least ${min}, not ${raw}`;
  return n;
}

function checkBaseUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `--base-url '${raw}' is not a URL (e.g. http://127.0.0.1:8080/api)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `--base-url must be an http or https URL, not ${url.protocol}`;
  if (url.search || url.hash) return '--base-url must not carry a query or a fragment';
  if (url.username || url.password) return '--base-url must not carry credentials: send them with --header';
  return null;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses the arguments after `--`. `--name=value` and `--name value` are both accepted. */
export function parseArgs(argv: readonly string[], randomSeed: () => number = () => Math.floor(Math.random() * 2 ** 31)): Parsed {
  const options: Options = {
    spec: DEFAULT_SPEC,
    seed: 0,
    headers: [],
    otherHeaders: [],
    adminHeaders: [],
    refusedHeaders: [],
    readOnly: false,
    freshServer: false,
    runs: DEFAULT_RUNS,
    concurrency: 1,
    requestTimeout: DEFAULT_REQUEST_TIMEOUT_S,
    operationTimeout: DEFAULT_OPERATION_TIMEOUT_S,
    timeLimit: DEFAULT_TIME_LIMIT_S,
    quiet: false,
    help: false,
  };
  let seed: number | undefined;
  const fail = (message: string): Parsed => ({ ok: false, message });
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (FLAG_OPTIONS.has(name)) {
      if (eq !== -1) return fail(`${name} takes no value`);
      if (name === '--read-only') options.readOnly = true;
      else if (name === '--fresh-server') options.freshServer = true;
      else if (name === '--quiet') options.quiet = true;
      else options.help = true;
      continue;
    }
    if (!VALUE_OPTIONS.has(name)) {
      return fail(arg.startsWith('-') ? `unknown option ${name} (see --help)` : `unexpected argument '${arg}' (see --help)`);
    }
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) return fail(`${name} needs a value`);
      value = next;
      i++;
    }
    switch (name) {
      case '--base-url': {
        const problem = checkBaseUrl(value);
        if (problem) return fail(problem);
        options.baseUrl = value.replace(/\/+$/, '');
        break;
      }
      case '--spec':
      case '--junit':
      case '--json':
      case '--html':
        if (value === '') return fail(`${name} needs a file name`);
        if (name === '--spec') options.spec = value;
        else options[name.slice(2) as 'junit' | 'json' | 'html'] = value;
        break;
      case '--header':
      case '--other-header':
      case '--admin-header':
      case '--refused-header': {
        const colon = value.indexOf(':');
        const headerName = colon === -1 ? '' : value.slice(0, colon).trim();
        if (colon === -1 || !HEADER_NAME.test(headerName)) return fail(`${name} takes "Name: value", not '${value}'`);
        const lists = {
          '--header': options.headers,
          '--other-header': options.otherHeaders,
          '--admin-header': options.adminHeaders,
          '--refused-header': options.refusedHeaders,
        };
        const list = lists[name];
        list.push([headerName, value.slice(colon + 1).trim()]);
        break;
      }
      case '--seed': {
        if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) return fail(`--seed takes an integer, not '${value}'`);
        seed = Number(value) | 0;
        break;
      }
      case '--max-requests':
      case '--runs':
      case '--concurrency':
      case '--rate':
      case '--request-timeout':
      case '--operation-timeout':
      case '--time-limit': {
        const n = positiveInteger(name, value);
        if (typeof n === 'string') return fail(n);
        options[WHOLE_NUMBER_OPTIONS[name]] = n;
        break;
      }
    }
  }
  options.seed = seed ?? randomSeed() | 0;
  return { ok: true, options };
}
