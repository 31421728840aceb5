/**
 * One run of a peer contract-testing tool against the embedded mock, to measure it on the same
 * server mutants as verify (scripts/peer-mutation.mjs):
 *
 *   node verify/peers/run.ts dredd|portman [--verbose] [--install-only]
 *
 * Starts the mock from this copy of the repository (inside a mutation run's sandbox: the mutated
 * one) on a free 127.0.0.1 port with no delay, signs in grace (member), linus (another member) and
 * ada (admin), runs the tool against it with their tokens, stops the mock. Exits 0 when the tool
 * passes, 1 when it reports a failure, 2 when it could not run. The tool's output is printed only
 * on failure (all of it with --verbose).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmbeddedMock, type EmbeddedMock } from '../mock.ts';
import type { PeerContext } from './dredd-hooks.ts';
import { newmanVariables, pruneUnfuzzed } from './portman.ts';
import { bin, ensureInstalled, isPeerName, PEER_NAMES, peersDir, type PeerName } from './tools.ts';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const SPEC = join(root, 'openapi.yaml');

interface Outcome {
  code: number | null;
  output: string;
}

function execute(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Outcome> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd ?? root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

function contextOf(mock: EmbeddedMock): PeerContext {
  const authorization = (headers: Array<[string, string]>) => headers.find(([name]) => name.toLowerCase() === 'authorization')![1];
  return {
    baseUrl: mock.baseUrl,
    authorization: {
      member: authorization(mock.headers),
      other: authorization(mock.otherHeaders),
      admin: authorization(mock.adminHeaders),
    },
  };
}

async function runDredd(context: PeerContext): Promise<Outcome> {
  return execute(
    [
      bin('dredd', 'dredd'),
      SPEC,
      context.baseUrl,
      '--hookfiles',
      join(here, 'dredd-hooks.cjs'),
      '--loglevel',
      'error',
      ...(process.env.DREDD_DETAILS ? ['--details'] : []),
    ],
    {
      env: { CIRCLE_PEER_CONTEXT: JSON.stringify(context) },
    },
  );
}

const PORTMAN_CONFIG = join(here, 'portman-config.json');

/**
 * The Postman collection Portman makes of openapi.yaml with ./portman-config.json. It depends on
 * those files only, not on the server, so it is kept (under their hash) for the next runs.
 */
async function portmanCollection(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [SPEC, PORTMAN_CONFIG, bin('portman', 'portman')]) hash.update(readFileSync(file));
  const dir = join(peersDir(), 'portman', 'collections');
  const file = join(dir, `${hash.digest('hex').slice(0, 24)}.json`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  // Portman writes beside its output and reads a .env from where it runs: a directory of its own.
  const work = mkdtempSync(join(tmpdir(), 'circle-portman-'));
  try {
    const made = await execute(
      [bin('portman', 'portman'), '--local', SPEC, '--portmanConfigFile', PORTMAN_CONFIG].concat([
        '--output',
        join(work, 'collection.json'),
        '--includeTests',
        'true',
        '--warn',
        'false',
      ]),
      { cwd: work },
    );
    if (made.code !== 0 || !existsSync(join(work, 'collection.json')))
      throw new Error(`portman could not make the collection:\n${made.output}`);
    const pruned = pruneUnfuzzed(JSON.parse(readFileSync(join(work, 'collection.json'), 'utf8')) as { item?: [] });
    writeFileSync(join(work, 'pruned.json'), JSON.stringify(pruned.collection));
    renameSync(join(work, 'pruned.json'), file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return file;
}

async function runPortman(context: PeerContext): Promise<Outcome> {
  const collection = await portmanCollection();
  return execute([
    bin('portman', 'newman'),
    'run',
    collection,
    ...Object.entries(newmanVariables(context)).flatMap(([name, value]) => ['--env-var', `${name}=${value}`]),
    '--reporters',
    'cli',
    '--reporter-cli-no-banner',
    '--reporter-cli-no-console',
    '--color',
    'off',
    '--ignore-redirects',
  ]);
}

const RUNNERS: Record<PeerName, (context: PeerContext) => Promise<Outcome>> = { dredd: runDredd, portman: runPortman };

async function runPeer(name: PeerName, verbose = false): Promise<number> {
  if (!ensureInstalled(name)) {
    console.error(`${name} is not installed in ${peersDir()} and npm could not install it`);
    return 2;
  }
  const started = Date.now();
  const mock = await startEmbeddedMock();
  let outcome: Outcome;
  try {
    outcome = await RUNNERS[name](contextOf(mock));
  } finally {
    await mock.close();
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (verbose || outcome.code !== 0) console.log(outcome.output.trimEnd());
  if (outcome.code === 0) console.log(`${name}: passed (${seconds} s)`);
  else console.log(`${name}: failed, exit code ${outcome.code} (${seconds} s)`);
  return outcome.code === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(here, 'run.ts')) {
  const args = process.argv.slice(2);
  const name = args.find((arg) => !arg.startsWith('--'));
  if (!isPeerName(name)) {
    console.error(`usage: node verify/peers/run.ts ${PEER_NAMES.join('|')} [--verbose] [--install-only]`);
    process.exit(2);
  }
  if (args.includes('--install-only')) process.exit(ensureInstalled(name) ? 0 : 2);
  runPeer(name, args.includes('--verbose')).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`${name} could not run: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
}
