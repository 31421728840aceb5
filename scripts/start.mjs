/**
 * `npm start -- [options]`: builds the app, then serves it with the mock API (`npm run serve`),
 * passing the options on. They are checked first, so that a mistyped flag, or a data or scenario
 * file that is not there, fails at once (exit 2) instead of after a build, and --help needs no
 * build at all.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { parseOptions, usage, UsageError } from '../server/index.ts';

const args = process.argv.slice(2);
let parsed;
try {
  parsed = parseOptions(args, process.env);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`start: ${error.message}`);
  process.exit(2);
}
if (parsed.help) {
  console.log(usage());
  process.exit(0);
}
// The files the server reads at start, in the words it would use after the build (--persist
// makes its file when there is none).
for (const [file, what] of [
  [parsed.options.dataFile, 'data file'],
  [parsed.options.scenarioFile, 'scenario file'],
]) {
  if (!file) continue;
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    console.error(`start: ${file}: the ${what} cannot be read (${error.code ?? String(error)})`);
    process.exit(2);
  }
}

// npm_execpath is the npm that runs this script: the build and the server run through it too.
const npm = (...npmArgs) => spawnSync(process.execPath, [process.env.npm_execpath, ...npmArgs], { stdio: 'inherit' });
const build = npm('run', 'build');
if (build.status !== 0) process.exit(build.status ?? 1);
const serve = npm('run', 'serve', '--', ...args);
process.exit(serve.status ?? 1);
