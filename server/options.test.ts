// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { MAX_DELAY_MS } from '../mock-api/index.ts';
import { OPTIONS, parseOptions, usage, UsageError } from './options.ts';

const options = (argv: string[], env: Record<string, string> = {}) => {
  const parsed = parseOptions(argv, env);
  if (parsed.help) throw new Error('asked for help');
  return parsed.options;
};
const usageError = (argv: string[], env: Record<string, string> = {}) => {
  try {
    parseOptions(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('npm run serve options', () => {
  it('has the defaults of before: 127.0.0.1:8080, a 1000 ms delay, dist, not strict, the seed, no file', () => {
    expect(options([])).toEqual({
      port: 8080,
      host: '127.0.0.1',
      delayMs: 1000,
      distDir: 'dist',
      strict: false,
      dataFile: null,
      persistFile: null,
      scenarioFile: null,
      journalSize: 100,
      accessTokenTtl: 300,
      issuer: null,
      audience: null,
      allowedHosts: [],
    });
  });

  it('reads every option from its flag, `--flag value` or `--flag=value`, and from its variable, the flag winning', () => {
    const argv = ['--port', '0', '--host=localhost', '--delay', '0', '--dist', 'build', '--strict'];
    const files = ['--data', 'f.json', '--persist=db.json', '--scenario', 's.json'];
    const idp = ['--issuer', 'https://id.example.org/realms/circle/', '--audience', 'circle-api'];
    const hosts = ['--allowed-hosts', 'Circle.test, .example.org'];
    expect(options([...argv, ...files, '--log-size', '5', '--token-ttl=30', ...idp, ...hosts])).toEqual({
      port: 0,
      host: 'localhost',
      delayMs: 0,
      distDir: 'build',
      strict: true,
      dataFile: 'f.json',
      persistFile: 'db.json',
      scenarioFile: 's.json',
      journalSize: 5,
      accessTokenTtl: 30,
      issuer: 'https://id.example.org/realms/circle',
      audience: 'circle-api',
      allowedHosts: ['circle.test', '.example.org'],
    });
    const env = {
      PORT: '9000',
      HOST: '0.0.0.0',
      MOCK_DELAY_MS: '20',
      DIST_DIR: 'out',
      MOCK_STRICT: '1',
      MOCK_DATA: 'a.json',
      MOCK_PERSIST: 'b.json',
      MOCK_SCENARIO: 'c.json',
      MOCK_LOG_SIZE: '7',
      OIDC_ACCESS_TOKEN_TTL: '60',
      OIDC_ISSUER: 'http://127.0.0.1:9000/oidc',
      OIDC_AUDIENCE: 'http://127.0.0.1:9000/api',
      MOCK_ALLOWED_HOSTS: 'box.lan',
    };
    expect(options([], env)).toEqual({
      port: 9000,
      host: '0.0.0.0',
      delayMs: 20,
      distDir: 'out',
      strict: true,
      dataFile: 'a.json',
      persistFile: 'b.json',
      scenarioFile: 'c.json',
      journalSize: 7,
      accessTokenTtl: 60,
      issuer: 'http://127.0.0.1:9000/oidc',
      audience: 'http://127.0.0.1:9000/api',
      allowedHosts: ['box.lan'],
    });
    expect(options(['--port', '1234', '--dist', 'mine'], env)).toMatchObject({ port: 1234, distDir: 'mine', host: '0.0.0.0' });
  });

  it('answers --help (and -h) whatever else is given', () => {
    expect(parseOptions(['--port', 'x', '--help'], {})).toEqual({ help: true });
    expect(parseOptions(['-h'], {})).toEqual({ help: true });
  });

  it('lists every option and its variable in the help, PORT, HOST, MOCK_DELAY_MS, DIST_DIR and MOCK_STRICT included', () => {
    const text = usage();
    for (const o of OPTIONS) {
      expect(text).toContain(o.flag);
      expect(text).toContain(o.env);
    }
    for (const env of ['PORT', 'HOST', 'MOCK_DELAY_MS', 'DIST_DIR', 'MOCK_STRICT']) expect(text).toContain(env);
  });

  it('prints the help as a table: each flag with its value, its variable and what it does in aligned columns, then the notes', () => {
    expect(usage().split('\n')).toEqual([
      'Usage: npm run serve -- [options]     (npm start -- [options] builds first)',
      '',
      'Serves the built app and the mock API (under /api/) on one origin.',
      '',
      '  option               environment            what it does',
      '  --port N             PORT                   port to listen on (default 8080; 0 takes a free one)',
      '  --host HOST          HOST                   address to listen on (default 127.0.0.1)',
      '  --allowed-hosts A,B  MOCK_ALLOWED_HOSTS     more host names to answer to (IPs, localhost and --host always; .example.org: it and below)',
      '  --delay MS           MOCK_DELAY_MS          delay of every mock API answer in milliseconds, at most 30000 (default 1000; the tests use 0)',
      '  --dist DIR           DIST_DIR               the build to serve (default dist)',
      '  --strict             MOCK_STRICT            check every API exchange against openapi.yaml and print each violation (MOCK_STRICT=1)',
      '  --data FILE          MOCK_DATA              initial records from a JSON file keyed by collection (and profile), instead of the seed',
      '  --persist FILE       MOCK_PERSIST           keep the data in FILE: loaded at start, every change written before it is answered',
      '  --scenario FILE      MOCK_SCENARIO          per operationId, a status, a delay or a fault for a share of its requests',
      '  --log-size N         MOCK_LOG_SIZE          exchanges GET /__mock/requests keeps (default 100)',
      "  --token-ttl S        OIDC_ACCESS_TOKEN_TTL  lifetime of the /oidc provider's access tokens in seconds (default 300; short to watch the app renew)",
      "  --issuer URL         OIDC_ISSUER            accept access tokens of this OpenID Connect provider (Keycloak, Auth0, ...) instead of /oidc's",
      "  --audience AUD       OIDC_AUDIENCE          the audience --issuer's tokens carry (default <origin>/api)",
      '  --help                                      this help',
      '',
      'A flag wins over its environment variable. The mock also answers POST /__mock/reset (back to the',
      'seed or the --data file) and GET /__mock/requests (the last exchanges), from its own origin only.',
      'Sign-in: an OpenID Connect provider under /oidc (members ada, grace and linus, password circle;',
      'ada is the admin). A request naming another Host is refused with 421 (see docs/security.md).',
    ]);
  });

  it('takes a number with spaces around it, and each number at both ends of its range', () => {
    expect(options([], { PORT: ' 9000 ', MOCK_DELAY_MS: '30000', MOCK_LOG_SIZE: '100000', OIDC_ACCESS_TOKEN_TTL: '86400' })).toMatchObject({
      port: 9000,
      delayMs: MAX_DELAY_MS,
      journalSize: 100_000,
      accessTokenTtl: 86_400,
    });
    expect(options(['--port', '65535', '--delay', '0', '--log-size', '1', '--token-ttl', '5'])).toMatchObject({
      port: 65535,
      delayMs: 0,
      journalSize: 1,
      accessTokenTtl: 5,
    });
  });

  it('refuses a number written any other way than plain digits, even one JavaScript would read', () => {
    for (const raw of ['0x50', '+80', '1e3', '80.0', '8_0', ''])
      expect(usageError(['--port', raw])).toBe(`--port must be a port number from 0 to 65535, not '${raw}'`);
    expect(usageError(['--port', '65536'])).toBe("--port must be a port number from 0 to 65535, not '65536'");
    expect(usageError(['--delay', '30001'])).toBe("--delay must be a whole number of milliseconds up to 30000, not '30001'");
    expect(usageError(['--log-size', '100001'])).toBe("--log-size must be a number of exchanges from 1 to 100000, not '100001'");
    expect(usageError(['--token-ttl', '86401'])).toBe("--token-ttl must be a number of seconds from 5 to 86400, not '86401'");
  });

  it('takes an issuer only over http or https, without its trailing slash', () => {
    expect(usageError(['--issuer', 'ftp://id.example.org'])).toBe("--issuer must be an http(s) URL, not 'ftp://id.example.org'");
    expect(usageError([], { OIDC_ISSUER: 'urn:circle' })).toBe("OIDC_ISSUER must be an http(s) URL, not 'urn:circle'");
    expect(options(['--issuer=http://id.example.org/'])).toMatchObject({ issuer: 'http://id.example.org' });
  });

  it('takes a value starting with -- when it is given inline after =, and reads the rest of a single-dash argument as its name', () => {
    expect(options(['--dist=--build', '--audience=a=b'])).toMatchObject({ distDir: '--build', audience: 'a=b' });
    expect(usageError(['-p=80'])).toBe("unknown option '-p=80' (--help lists them)");
    expect(usageError(['--prot=80'])).toBe("unknown option '--prot' (--help lists them)");
  });

  it('takes a variable set to nothing for one not set', () => {
    const env = Object.fromEntries(OPTIONS.map((o) => [o.env, '']));
    expect(options([], env)).toEqual(options([]));
  });

  it('names the missing value of each option by its placeholder', () => {
    for (const o of OPTIONS.filter((spec) => spec.value !== undefined))
      expect(usageError([o.flag])).toBe(`${o.flag} needs a value (${o.value})`);
    expect(usageError(['--token-ttl', '--port', '80'])).toBe('--token-ttl needs a value (S)');
  });

  it('takes host names separated by commas for --allowed-hosts, and refuses anything else in one line', () => {
    expect(options(['--allowed-hosts', 'a.test,,b-c.example_x ']).allowedHosts).toEqual(['a.test', 'b-c.example_x']);
    for (const raw of ['http://a.test', 'a.test:80', 'a b', '*.a.test', ',', 'a..b', '.']) {
      expect(usageError(['--allowed-hosts', raw])).toBe(
        `--allowed-hosts must be host names separated by commas (e.g. circle.test,.example.org), not '${raw}'`,
      );
    }
  });

  it('is strict with --strict or MOCK_STRICT=1 only', () => {
    expect(options(['--strict']).strict).toBe(true);
    expect(options([], { MOCK_STRICT: 'true' }).strict).toBe(false);
    expect(options([], { MOCK_STRICT: '0' }).strict).toBe(false);
  });

  it('refuses an unknown flag, a stray argument, a missing value and a bad number, each in one line naming it', () => {
    expect(usageError(['--prot', '80'])).toBe("unknown option '--prot' (--help lists them)");
    expect(usageError(['fixtures.json'])).toBe("unexpected argument 'fixtures.json' (--help lists the options)");
    expect(usageError(['--dist'])).toBe('--dist needs a value (DIR)');
    expect(usageError(['--dist', '--strict'])).toBe('--dist needs a value (DIR)');
    expect(usageError(['--strict=yes'])).toBe('--strict takes no value');
    expect(usageError(['--port', '80a'])).toBe("--port must be a port number from 0 to 65535, not '80a'");
    expect(usageError([], { PORT: '70000' })).toBe("PORT must be a port number from 0 to 65535, not '70000'");
    expect(usageError([], { MOCK_DELAY_MS: '-5' })).toBe("MOCK_DELAY_MS must be a whole number of milliseconds up to 30000, not '-5'");
    expect(usageError(['--log-size', '0'])).toBe("--log-size must be a number of exchanges from 1 to 100000, not '0'");
    expect(usageError(['--issuer', 'id.example.org'])).toBe("--issuer must be an http(s) URL, not 'id.example.org'");
    expect(usageError([], { OIDC_ACCESS_TOKEN_TTL: '2' })).toBe(
      "OIDC_ACCESS_TOKEN_TTL must be a number of seconds from 5 to 86400, not '2'",
    );
  });
});
