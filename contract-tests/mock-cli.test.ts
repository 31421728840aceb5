/**
 * `npm run serve` and `npm start` as a developer types them: --help, a mistyped flag, no build.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Finished, run, runServer } from './support/mock-process.ts';

const work = mkdtempSync(join(tmpdir(), 'circle-mock-cli-'));
/** What the server itself printed on stderr (npm prints its own lines around it). */
const ownLines = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('npm '));
const expectOneLineFailure = (run: Finished, code: number, pattern: RegExp) => {
  expect(run.code, `${run.stdout}${run.stderr}`).toBe(code);
  const lines = ownLines(run.stderr);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/^\s+at /m);
};
/** Every option of the server, with its environment variable. */
const OPTIONS = [
  ['--port', 'PORT'],
  ['--host', 'HOST'],
  ['--delay', 'MOCK_DELAY_MS'],
  ['--dist', 'DIST_DIR'],
  ['--strict', 'MOCK_STRICT'],
];

describe('npm run serve and npm start on the command line', () => {
  it('npm run serve -- --help lists every option with its variable and exits 0', { timeout: 60_000 }, async () => {
    const help = await run('npm', ['run', '--silent', 'serve', '--', '--help']);
    expect(help.code, help.stderr).toBe(0);
    for (const [flag, variable] of OPTIONS) {
      expect(help.stdout).toContain(flag);
      expect(help.stdout).toContain(variable);
    }
  });

  it('npm start -- with a mistyped flag stops at once, before building, with one line and exit 2', { timeout: 60_000 }, async () => {
    const start = await run('npm', ['start', '--', '--presist', 'db.json']);
    expectOneLineFailure(start, 2, /^start: unknown option '--presist' \(--help lists them\)$/);
    expect(start.stdout).not.toContain('vite');
    expectOneLineFailure(await runServer(['--port', 'eighty']), 2, /^serve: --port must be a port number/);
  });

  it('without a build, says to build first (exit 1)', async () => {
    expectOneLineFailure(await runServer(['--dist', work]), 1, /^serve: no build in .*: run 'npm run build' first/);
  });
});
