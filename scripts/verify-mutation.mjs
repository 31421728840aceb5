// `npm run test:verify-mutation [-- FILE…]`: verify's own mutation score. StrykerJS mutates the mock's
// request handling (stryker.verify.config.json: its handlers, database, inbox, body and avatar checks, validators, languages, rate limiter,
// authentication and errors; not start-up or logging), and `npm run verify` against the mutated
// mock is the only test: a mutant it does not notice is a server bug it would call conformant.
// Then the score per file, without the survivors listed in mutation-equivalents/verify/ (invisible
// over HTTP, or equivalent), against a goal of 90%. Incremental (.cache/stryker-verify-incremental.json).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const files = process.argv.slice(2);
for (const file of files) {
  if (!/^mock-api\/[\w./-]+\.ts$/.test(file) || !existsSync(resolve(root, file))) {
    console.error(`Not a file of mock-api/: ${file}`);
    process.exit(2);
  }
}
const args = [
  resolve(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
  'run',
  'stryker.verify.config.json',
  ...(files.length ? ['--mutate', files.join(',')] : []),
];
const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
const scores = spawnSync(process.execPath, [resolve(root, 'scripts/mutation-scores.mjs'), ...files], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    MUTATION_REPORT: 'reports/verify-mutation/mutation.json',
    MUTATION_EQUIVALENTS: 'mutation-equivalents/verify',
    MUTATION_BY: 'file',
    MUTATION_SCORE: 'without-equivalents',
    MUTATION_GOAL: process.env.MUTATION_GOAL ?? '90',
  },
});
process.exit(scores.status ?? 1);
