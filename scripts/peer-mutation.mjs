// `npm run test:peer-mutation -- dredd|portman [FILE…]`: a peer contract-testing tool's mutation score
// on the mutants verify's own score is measured on (scripts/verify-mutation.mjs): StrykerJS mutates
// the mock's request handling as stryker.verify.config.json says, and the tool, run against each
// mutated mock by verify/peers/run.ts, is the only test. The tool is installed on demand into
// .cache/peers/<tool>/ (it is no dependency of the project). FILE may carry a line range
// (`mock-api/handlers/collections.ts:40-80`) to take a sample. Then the scores per file, the
// equivalents of mutation-equivalents/verify/ left out as for verify; a measure, not a gate: it
// exits 0 once measured. Incremental (.cache/stryker-peer-<tool>-incremental.json); the report is
// reports/peer-mutation/<tool>/index.html.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const TOOLS = ['dredd', 'portman'];
const [tool, ...rest] = process.argv.slice(2);
const files = rest.filter((arg) => !arg.startsWith('--'));
const flags = rest.filter((arg) => arg.startsWith('--'));
if (!TOOLS.includes(tool)) {
  console.error(`usage: npm run test:peer-mutation -- ${TOOLS.join('|')} [FILE[:START-END]…] [--survivors]`);
  process.exit(2);
}
for (const file of files) {
  const path = file.replace(/:\d+-\d+$/, '');
  if (!/^mock-api\/[\w./-]+\.ts$/.test(path) || !existsSync(resolve(root, path))) {
    console.error(`Not a file of mock-api/: ${file}`);
    process.exit(2);
  }
}

const node = process.execPath;
const install = spawnSync(node, [resolve(root, 'verify/peers/run.ts'), tool, '--install-only'], { cwd: root, stdio: 'inherit' });
if (install.status !== 0) process.exit(install.status ?? 2);

// verify's configuration, with the peer as the command. Stryker runs the command in its sandbox, a
// copy of the repository without .cache: the tool is found through CIRCLE_PEERS_DIR.
const base = JSON.parse(readFileSync(resolve(root, 'stryker.verify.config.json'), 'utf8'));
const { $schema: _, ...shared } = base;
const reportDir = `reports/peer-mutation/${tool}`;
const config = {
  ...shared,
  _comment: `${tool}'s mutation score on verify's mutants (scripts/peer-mutation.mjs), made from stryker.verify.config.json.`,
  commandRunner: {
    command: `CIRCLE_PEERS_DIR='${resolve(root, '.cache/peers')}' node --disable-warning=ExperimentalWarning verify/peers/run.ts ${tool}`,
  },
  incrementalFile: `.cache/stryker-peer-${tool}-incremental.json`,
  htmlReporter: { fileName: `${reportDir}/index.html` },
  jsonReporter: { fileName: `${reportDir}/mutation.json` },
};
mkdirSync(resolve(root, '.cache'), { recursive: true });
const configFile = `.cache/stryker-peer-${tool}.config.json`;
writeFileSync(resolve(root, configFile), `${JSON.stringify(config, null, 2)}\n`);

const started = Date.now();
const args = [
  resolve(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
  'run',
  configFile,
  ...(files.length ? ['--mutate', files.join(',')] : []),
];
const run = spawnSync(node, args, { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
const minutes = (Date.now() - started) / 60000;
console.log(`${tool}: Stryker took ${Math.floor(minutes)} min ${Math.round((minutes % 1) * 60)} s`);

spawnSync(node, [resolve(root, 'scripts/mutation-scores.mjs'), ...files.map((file) => file.replace(/:\d+-\d+$/, '')), ...flags], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    MUTATION_REPORT: `${reportDir}/mutation.json`,
    MUTATION_EQUIVALENTS: 'mutation-equivalents/verify',
    MUTATION_BY: 'file',
    MUTATION_SCORE: 'without-equivalents',
    MUTATION_GOAL: '0',
  },
});
