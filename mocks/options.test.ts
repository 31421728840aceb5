// @vitest-environment node
import { describe, expect, it } from 'vitest';
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
    });
  });

  it('reads every option from its flag, `--flag value` or `--flag=value`, and from its variable, the flag winning', () => {
    const argv = ['--port', '0', '--host=localhost', '--delay', '0', '--dist', 'build', '--strict'];
    const files = ['--data', 'f.json', '--persist=db.json', '--scenario', 's.json'];
    const idp = ['--issuer', 'https://id.example.org/realms/circle/', '--audience', 'circle-api'];
    expect(options([...argv, ...files, '--log-size', '5', '--token-ttl=30', ...idp])).toEqual({
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

  it('refuses an unknown flag, a stray argument, a missing value and a bad number, each in one line naming it', () => {
    expect(usageError(['--prot', '80'])).toBe("unknown option '--prot' (--help lists them)");
    expect(usageError(['fixtures.json'])).toBe("unexpected argument 'fixtures.json' (--help lists the options)");
    expect(usageError(['--dist'])).toBe('--dist needs a value (DIR)');
    expect(usageError(['--dist', '--strict'])).toBe('--dist needs a value (DIR)');
    expect(usageError(['--strict=yes'])).toBe('--strict takes no value');
    expect(usageError(['--port', '80a'])).toBe("--port must be a port number from 0 to 65535, not '80a'");
    expect(usageError([], { PORT: '70000' })).toBe("PORT must be a port number from 0 to 65535, not '70000'");
    expect(usageError([], { MOCK_DELAY_MS: '-5' })).toBe("MOCK_DELAY_MS must be a whole number of milliseconds, not '-5'");
    expect(usageError(['--log-size', '0'])).toBe("--log-size must be a number of exchanges from 1 to 100000, not '0'");
    expect(usageError(['--issuer', 'id.example.org'])).toBe("--issuer must be an http(s) URL, not 'id.example.org'");
    expect(usageError([], { OIDC_ACCESS_TOKEN_TTL: '2' })).toBe(
      "OIDC_ACCESS_TOKEN_TTL must be a number of seconds from 5 to 86400, not '2'",
    );
  });
});
