/**
 * `npm run bench`: its options are read before anything is loaded or started, so --help and a
 * mistyped option answer at once; the measures (bench/bench.ts) load after. `--help` lists them.
 */
import { parseBenchArgs, usage, UsageError, type BenchOptions } from './options.ts';
import { closeOnSignals, isStopping } from './shutdown.ts';

function readOptions(argv: readonly string[]): BenchOptions {
  try {
    const parsed = parseBenchArgs(argv);
    if (parsed.help) {
      console.log(usage());
      process.exit(0);
    }
    return parsed.options;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`bench: ${error.message}`);
    process.exit(2);
  }
}

const options = readOptions(process.argv.slice(2));
// Before the first browser or server starts: a stop part way closes what was started.
closeOnSignals();
const { runBench } = await import('./bench.ts');
runBench(options).then(
  (code) => {
    if (!isStopping()) process.exit(code);
  },
  (error: unknown) => {
    // Stopped part way, the measure under way fails as its browser closes: the signal handler exits.
    if (isStopping()) return;
    console.error(error);
    process.exit(1);
  },
);
