// Mutation score per folder (src/<folder>, mock-api, server, oidc, openapi-kit), from Stryker's JSON report: killed and timed-out
// mutants over all valid ones. Folders or files given as arguments (`node scripts/mutation-scores.mjs
// src/lib`) limit it to the files under them: the ones just run.
//
// Every mutant that survives must be either killed by a test or listed in mutation-equivalents/*.json
// with the reason no test can tell it apart from the code (see mutation-equivalents/README.md).
// Exits 1 when a folder is under the goal, when a survivor is neither killed nor listed, or when a
// listed entry matches no survivor any more (a test kills it now, or its code changed).
// `--survivors` prints each unexplained survivor, one line each, to work through them.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { explainSurvivors, loadEquivalents } from './mutation-equivalents.mjs';

const root = resolve(import.meta.dirname, '..');
const GOAL = Number(process.env.MUTATION_GOAL ?? 80);
const args = process.argv.slice(2);
const listSurvivors = args.includes('--survivors');
const only = args.filter((a) => !a.startsWith('--'));
const reportPath = resolve(root, process.env.MUTATION_REPORT ?? 'reports/mutation/mutation.json');
// The verify run (scripts/verify-mutation.mjs) keeps its own list, scores each file, and judges the
// score without the listed equivalents.
const equivalentsName = process.env.MUTATION_EQUIVALENTS ?? 'mutation-equivalents';
const byFile = process.env.MUTATION_BY === 'file';
const judgeWithoutEquivalents = process.env.MUTATION_SCORE === 'without-equivalents';
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

const equivalentsDir = resolve(root, equivalentsName);
const listFiles = readdirSync(equivalentsDir)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name: `${equivalentsName}/${name}`, text: readFileSync(resolve(equivalentsDir, name), 'utf8') }));
const loaded = loadEquivalents(listFiles);
if (loaded.errors.length) {
  for (const error of loaded.errors) console.error(error);
  process.exit(2);
}

// Files no longer mutated (scripts/mutation.mjs leaves them out) keep their old results in the
// incremental report: they are not counted.
const NOT_MUTATED = /\.(test|typecheck|test-support)\.tsx?$/;
const inScope = (file) => !NOT_MUTATED.test(file) && (!only.length || only.some((path) => file === path || file.startsWith(`${path}/`)));
const files = Object.fromEntries(Object.entries(report.files).filter(([file]) => inScope(file)));
const { explained, unexplained, stale } = explainSurvivors(files, loaded.entries);

const folderOf = (file) => {
  if (byFile) return file;
  const parts = file.split('/');
  // src by layer; any other folder as a whole.
  return parts[0] === 'src' && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
};
const folders = new Map();
for (const [file, { mutants }] of Object.entries(files)) {
  const folder = folderOf(file);
  const f = folders.get(folder) ?? { killed: 0, survived: 0, noCoverage: 0, timeout: 0, equivalent: 0, unexplained: 0 };
  for (const m of mutants) {
    if (m.status === 'Killed') f.killed++;
    else if (m.status === 'Timeout') f.timeout++;
    else if (m.status === 'Survived') f.survived++;
    else if (m.status === 'NoCoverage') f.noCoverage++;
  }
  f.equivalent += explained.filter((s) => s.file === file).length;
  f.unexplained += unexplained.filter((s) => s.file === file).length;
  folders.set(folder, f);
}

let below = 0;
const pad = (value, width) => String(value).padStart(width);
const width = byFile ? Math.max(16, ...Object.keys(files).map((f) => f.length)) : 16;
console.log(
  `${(byFile ? 'file' : 'folder').padEnd(width)}  score  w/o equiv  killed  timeout  survived  no cover  equivalent  unexplained`,
);
for (const [folder, f] of [...folders].sort()) {
  const detected = f.killed + f.timeout;
  const valid = detected + f.survived + f.noCoverage;
  const score = valid ? (100 * detected) / valid : 100;
  // Stryker leaves an equivalent mutant marked in the code out of the score; a listed one likewise.
  const withoutEquivalents = valid - f.equivalent ? (100 * detected) / (valid - f.equivalent) : 100;
  const judged = judgeWithoutEquivalents ? withoutEquivalents : score;
  if (judged < GOAL) below++;
  console.log(
    `${folder.padEnd(width)} ${score.toFixed(1).padStart(6)}%  ${withoutEquivalents.toFixed(1).padStart(8)}%  ${pad(f.killed, 6)}  ${pad(f.timeout, 7)}  ${pad(f.survived, 8)}  ${pad(f.noCoverage, 8)}  ${pad(f.equivalent, 10)}  ${pad(f.unexplained, 11)}${judged < GOAL ? '  < goal' : ''}`,
  );
}
if (listSurvivors) {
  for (const s of unexplained) console.log(`${s.file}:${s.line}:${s.column} ${s.status} ${s.mutator}: ${s.original} => ${s.replacement}`);
}
for (const entry of stale) {
  console.log(
    `${entry.source}: listed but no survivor matches it (killed now, or its code changed): ${entry.file} ${entry.mutator} ${JSON.stringify(entry.code)}`,
  );
}
const ok = below === 0 && unexplained.length === 0 && stale.length === 0;
console.log(
  `goal ${GOAL}% in every folder: ${below === 0 ? 'met' : `${below} folder(s) under it`}; ` +
    `survivors neither killed nor listed as equivalent: ${unexplained.length}${unexplained.length && !listSurvivors ? ' (--survivors lists them)' : ''}; ` +
    `stale entries: ${stale.length}; report: ${reportPath.replace(`${root}/`, '').replace(/mutation\.json$/, 'index.html')}`,
);
process.exit(ok ? 0 : 1);
