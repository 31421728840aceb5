// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isFullRun, PARTS, parseBenchArgs, usage, UsageError } from './options';

const options = (argv: string[]) => {
  const parsed = parseBenchArgs(argv);
  if (parsed.help) throw new Error('asked for help');
  return parsed.options;
};

const refusal = (argv: string[]) => {
  try {
    parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`${argv.join(' ')} was taken`);
};

describe('parseBenchArgs', () => {
  it('with nothing given, builds and measures every part on every prerendered route', () => {
    const o = options([]);
    expect(o).toEqual({ quick: false, build: true, dist: 'dist', routes: null, parts: new Set(PARTS) });
    expect(isFullRun(o)).toBe(true);
  });

  it('asks for help with --help or -h, whatever else is given', () => {
    expect(parseBenchArgs(['--help'])).toEqual({ help: true });
    expect(parseBenchArgs(['-h'])).toEqual({ help: true });
    expect(parseBenchArgs(['--quick', '--help', '--bogus'])).toEqual({ help: true });
  });

  it('refuses an unknown option or a stray argument in one line that points to --help', () => {
    expect(refusal(['--bogus'])).toBe("unknown option '--bogus' (--help lists them)");
    expect(refusal(['--bogus=1'])).toBe("unknown option '--bogus' (--help lists them)");
    expect(refusal(['-q'])).toBe("unknown option '-q' (--help lists them)");
    expect(refusal(['quick'])).toBe("unexpected argument 'quick' (--help lists the options)");
    for (const argv of [['--bogus'], ['quick']]) expect(refusal(argv)).not.toContain('\n');
  });

  it('takes a switch without a value and an option with one, inline or as the next argument', () => {
    expect(refusal(['--quick=yes'])).toBe('--quick takes no value');
    expect(refusal(['--routes'])).toBe('--routes needs a value (LIST)');
    expect(refusal(['--routes', '--quick'])).toBe('--routes needs a value (LIST)');
    expect(options(['--routes', '/home']).routes).toEqual(['/home']);
    expect(options(['--routes=/home,/settings']).routes).toEqual(['/home', '/settings']);
  });

  it('takes routes that start with a slash, at least one', () => {
    expect(options(['--routes= /, /404 ,']).routes).toEqual(['/', '/404']);
    expect(refusal(['--routes=home'])).toBe("--routes: a route starts with '/', not 'home'");
    expect(refusal(['--routes=,'])).toBe('--routes needs at least one value');
  });

  it('measures only the parts named, and --mock-throughput is one of them', () => {
    expect([...options(['--only=lighthouse,long-tasks']).parts]).toEqual(['lighthouse', 'long-tasks']);
    expect([...options(['--mock-throughput']).parts]).toEqual(['mock-throughput']);
    expect([...options(['--only=warm', '--mock-throughput']).parts]).toEqual(['warm', 'mock-throughput']);
    expect(refusal(['--only=speed'])).toBe(`--only: no part 'speed' (parts: ${PARTS.join(', ')})`);
  });

  it('measures the build in dist without building it, or another build', () => {
    expect(options(['--no-build'])).toMatchObject({ build: false, dist: 'dist' });
    expect(options(['--dist', '/tmp/build'])).toMatchObject({ build: false, dist: '/tmp/build' });
  });

  it('a run that leaves out a part, a route or the build in dist is not a full run (it writes no results)', () => {
    expect(isFullRun(options(['--quick', '--no-build']))).toBe(true);
    expect(isFullRun(options(['--only=lighthouse']))).toBe(false);
    expect(isFullRun(options(['--routes=/home']))).toBe(false);
    expect(isFullRun(options(['--dist=/tmp/build']))).toBe(false);
  });
});

describe('usage', () => {
  it('lists every option, the parts and the exit codes', () => {
    const text = usage();
    for (const flag of ['--quick', '--no-build', '--dist=DIR', '--routes=LIST', '--only=PARTS', '--mock-throughput', '--help'])
      expect(text).toContain(flag);
    for (const part of PARTS) expect(text).toContain(part);
    expect(text).toContain('Exit code 1 when a budget is missed');
    expect(text).toContain('2 for a bad option');
  });
});
