// @vitest-environment node
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const START = resolve(import.meta.dirname, 'start.mjs');

/**
 * Runs `npm start -- …` as npm would, with an npm that only notes that it was asked to build: the
 * check must fail before that.
 */
function start(...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'circle-start-'));
  const marker = join(dir, 'built');
  const npm = join(dir, 'npm.mjs');
  writeFileSync(
    npm,
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, process.argv.slice(2).join(' '));\nprocess.exit(1);\n`,
  );
  const run = spawnSync(process.execPath, [START, ...args], { encoding: 'utf8', env: { ...process.env, npm_execpath: npm }, cwd: dir });
  return { ...run, built: existsSync(marker) };
}

// Each run loads the server's option parser (and with it the mock), several seconds on a busy machine.
describe('npm start', { timeout: 60_000 }, () => {
  it('fails at once, in one line and before any build, for a data file that is not there', () => {
    const run = start('--data', 'missing.json');
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe('start: missing.json: the data file cannot be read (ENOENT)');
    expect(run.built).toBe(false);
  });

  it('and for a scenario file that is not there', () => {
    const run = start('--scenario', 'nowhere.json');
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe('start: nowhere.json: the scenario file cannot be read (ENOENT)');
    expect(run.built).toBe(false);
  });

  it('builds when the files are there (and stops here when the build fails)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'circle-data-'));
    const data = join(dir, 'data.json');
    writeFileSync(data, '{}');
    const run = start('--data', data);
    expect(run.built).toBe(true);
    expect(run.status).toBe(1);
  });
});
