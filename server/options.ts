/**
 * The options of `npm run serve` and `npm start`: flags (after `--`) or environment variables, a
 * flag winning over its variable. Plain TypeScript without imports, so that scripts/start.mjs can
 * check them before it builds.
 */

export interface ServeOptions {
  port: number;
  host: string;
  delayMs: number;
  distDir: string;
  strict: boolean;
  dataFile: string | null;
  persistFile: string | null;
  scenarioFile: string | null;
  journalSize: number;
  /** The embedded identity provider's access token lifetime, in seconds. */
  accessTokenTtl: number;
  /** Another provider whose access tokens the API accepts instead of the embedded one's. */
  issuer: string | null;
  /** The audience those tokens must carry (default: the API's URL on this origin). */
  audience: string | null;
  /** Host names the server answers to besides IP addresses, localhost and --host (`.example.org`: the domain and below). */
  allowedHosts: string[];
}

/** Bad flags or values: one line for stderr, exit code 2. */
export class UsageError extends Error {}

interface OptionSpec {
  flag: string;
  env: string;
  /** The value's placeholder; none for a switch. */
  value?: string;
  help: string;
}

export const OPTIONS: readonly OptionSpec[] = [
  { flag: '--port', env: 'PORT', value: 'N', help: 'port to listen on (default 8080; 0 takes a free one)' },
  { flag: '--host', env: 'HOST', value: 'HOST', help: 'address to listen on (default 127.0.0.1)' },
  {
    flag: '--allowed-hosts',
    env: 'MOCK_ALLOWED_HOSTS',
    value: 'A,B',
    help: 'more host names to answer to (IPs, localhost and --host always; .example.org: it and below)',
  },
  {
    flag: '--delay',
    env: 'MOCK_DELAY_MS',
    value: 'MS',
    help: 'delay of every mock API answer in milliseconds, at most 30000 (default 1000; the tests use 0)',
  },
  { flag: '--dist', env: 'DIST_DIR', value: 'DIR', help: 'the build to serve (default dist)' },
  { flag: '--strict', env: 'MOCK_STRICT', help: 'check every API exchange against openapi.yaml and print each violation (MOCK_STRICT=1)' },
  {
    flag: '--data',
    env: 'MOCK_DATA',
    value: 'FILE',
    help: 'initial records from a JSON file keyed by collection (and profile), instead of the seed',
  },
  {
    flag: '--persist',
    env: 'MOCK_PERSIST',
    value: 'FILE',
    help: 'keep the data in FILE: loaded at start, every change written before it is answered',
  },
  {
    flag: '--scenario',
    env: 'MOCK_SCENARIO',
    value: 'FILE',
    help: 'per operationId, a status, a delay or a fault for a share of its requests',
  },
  { flag: '--log-size', env: 'MOCK_LOG_SIZE', value: 'N', help: 'exchanges GET /__mock/requests keeps (default 100)' },
  {
    flag: '--token-ttl',
    env: 'OIDC_ACCESS_TOKEN_TTL',
    value: 'S',
    help: "lifetime of the /oidc provider's access tokens in seconds (default 300; short to watch the app renew)",
  },
  {
    flag: '--issuer',
    env: 'OIDC_ISSUER',
    value: 'URL',
    help: "accept access tokens of this OpenID Connect provider (Keycloak, Auth0, ...) instead of /oidc's",
  },
  { flag: '--audience', env: 'OIDC_AUDIENCE', value: 'AUD', help: "the audience --issuer's tokens carry (default <origin>/api)" },
];

export function usage(): string {
  const rows = OPTIONS.map((o) => [`${o.flag}${o.value ? ` ${o.value}` : ''}`, o.env, o.help] as const);
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return [
    'Usage: npm run serve -- [options]     (npm start -- [options] builds first)',
    '',
    'Serves the built app and the mock API (under /api/) on one origin.',
    '',
    `  ${'option'.padEnd(w0)}  ${'environment'.padEnd(w1)}  what it does`,
    ...rows.map(([flag, env, help]) => `  ${flag.padEnd(w0)}  ${env.padEnd(w1)}  ${help}`),
    `  ${'--help'.padEnd(w0)}  ${''.padEnd(w1)}  this help`,
    '',
    'A flag wins over its environment variable. The mock also answers POST /__mock/reset (back to the',
    'seed or the --data file) and GET /__mock/requests (the last exchanges), from its own origin only.',
    'Sign-in: an OpenID Connect provider under /oidc (members ada, grace and linus, password circle;',
    'ada is the admin). A request naming another Host is refused with 421 (see docs/security.md).',
  ].join('\n');
}

function integer(raw: string, source: string, min: number, max: number, what: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${source} must be ${what}, not '${raw}'`);
  }
  return n;
}

/** A comma-separated list of host names, each optionally with a leading dot; lower-cased. */
function hostNames(raw: string, source: string): string[] {
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const bad = names.find((name) => !/^\.?[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/.test(name));
  if (bad !== undefined || names.length === 0) {
    throw new UsageError(`${source} must be host names separated by commas (e.g. circle.test,.example.org), not '${raw}'`);
  }
  return names;
}

function httpUrl(raw: string, source: string): string {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL at all: said below.
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new UsageError(`${source} must be an http(s) URL, not '${raw}'`);
  return raw.replace(/\/$/, '');
}

/** Reads the flags and the environment: `help` when --help was asked for; a UsageError for anything else amiss. */
export function parseOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { help: true } | { help: false; options: ServeOptions } {
  const given = new Map<string, string>();
  const switches = new Set<string>();
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
    if (spec.value === undefined) {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
      switches.add(flag);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--')))
      throw new UsageError(`${flag} needs a value (${spec.value})`);
    given.set(flag, value);
  }

  /** The flag's value, else the variable's (unset or empty: none), with where it came from for messages. */
  const read = (flag: string): { value: string; source: string } | null => {
    const spec = OPTIONS.find((o) => o.flag === flag)!;
    const fromFlag = given.get(flag);
    if (fromFlag !== undefined) return { value: fromFlag, source: flag };
    const fromEnv = env[spec.env];
    return fromEnv === undefined || fromEnv === '' ? null : { value: fromEnv, source: spec.env };
  };
  const file = (flag: string) => read(flag)?.value ?? null;
  const port = read('--port');
  const delay = read('--delay');
  const journal = read('--log-size');
  const ttl = read('--token-ttl');
  const issuer = read('--issuer');
  const allowedHosts = read('--allowed-hosts');
  const strict = switches.has('--strict') || env.MOCK_STRICT === '1';

  return {
    help: false,
    options: {
      port: port ? integer(port.value, port.source, 0, 65535, 'a port number from 0 to 65535') : 8080,
      host: read('--host')?.value ?? '127.0.0.1',
      // The mock API's MAX_DELAY_MS (this file imports nothing: options.test.ts holds the two equal).
      delayMs: delay ? integer(delay.value, delay.source, 0, 30_000, 'a whole number of milliseconds up to 30000') : 1000,
      distDir: read('--dist')?.value ?? 'dist',
      strict,
      dataFile: file('--data'),
      persistFile: file('--persist'),
      scenarioFile: file('--scenario'),
      journalSize: journal ? integer(journal.value, journal.source, 1, 100_000, 'a number of exchanges from 1 to 100000') : 100,
      accessTokenTtl: ttl ? integer(ttl.value, ttl.source, 5, 86_400, 'a number of seconds from 5 to 86400') : 300,
      issuer: issuer ? httpUrl(issuer.value, issuer.source) : null,
      audience: read('--audience')?.value ?? null,
      allowedHosts: allowedHosts ? hostNames(allowedHosts.value, allowedHosts.source) : [],
    },
  };
}
