// Mutation score per folder (src/<folder>, mocks), from Stryker's JSON report: killed and timed-out
// mutants over all valid ones. Exits 1 when a folder is under the goal. Folders given as arguments
// (`node scripts/mutation-scores.mjs src/lib`) limit it to the files under them: the ones just run.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const GOAL = Number(process.env.MUTATION_GOAL ?? 80);
const report = JSON.parse(readFileSync(resolve(import.meta.dirname, '../reports/mutation/mutation.json'), 'utf8'));
const only = process.argv.slice(2);
const folders = new Map();
for (const [file, { mutants }] of Object.entries(report.files)) {
  if (only.length && !only.some((path) => file === path || file.startsWith(`${path}/`))) continue;
  const parts = file.split('/');
  const folder = parts[0] === 'src' && parts.length > 2 ? `src/${parts[1]}` : parts[0] === 'src' ? 'src' : parts[0];
  const f = folders.get(folder) ?? { killed: 0, survived: 0, noCoverage: 0, timeout: 0, other: 0 };
  for (const m of mutants) {
    if (m.status === 'Killed') f.killed++;
    else if (m.status === 'Timeout') f.timeout++;
    else if (m.status === 'Survived') f.survived++;
    else if (m.status === 'NoCoverage') f.noCoverage++;
    else f.other++;
  }
  folders.set(folder, f);
}
let below = 0;
console.log('folder            score   killed  timeout  survived  no cover');
for (const [folder, f] of [...folders].sort()) {
  const detected = f.killed + f.timeout;
  const valid = detected + f.survived + f.noCoverage;
  const score = valid ? (100 * detected) / valid : 100;
  if (score < GOAL) below++;
  console.log(
    `${folder.padEnd(16)} ${score.toFixed(1).padStart(6)}%  ${String(f.killed).padStart(6)}  ${String(f.timeout).padStart(7)}  ${String(f.survived).padStart(8)}  ${String(f.noCoverage).padStart(8)}${score < GOAL ? '  < goal' : ''}`,
  );
}
console.log(`goal ${GOAL}% in every folder: ${below === 0 ? 'met' : `${below} folder(s) under it`}; report: reports/mutation/index.html`);
process.exit(below === 0 ? 0 : 1);
