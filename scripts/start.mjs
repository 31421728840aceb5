/**
 * `npm start -- [options]`: builds the app, then serves it with the mock API (`npm run serve`),
 * passing the options on. They are checked first, so that a mistyped flag fails at once (exit 2)
 * instead of after a build, and --help needs no build at all.
 */
import { spawnSync } from 'node:child_process';
import { parseOptions, usage, UsageError } from '../mocks/server/index.ts';

const args = process.argv.slice(2);
try {
  if (parseOptions(args, process.env).help) {
    console.log(usage());
    process.exit(0);
  }
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`start: ${error.message}`);
  process.exit(2);
}

// npm_execpath is the npm that runs this script: the build and the server run through it too.
const npm = (...npmArgs) => spawnSync(process.execPath, [process.env.npm_execpath, ...npmArgs], { stdio: 'inherit' });
const build = npm('run', 'build');
if (build.status !== 0) process.exit(build.status ?? 1);
const serve = npm('run', 'serve', '--', ...args);
process.exit(serve.status ?? 1);
