/** `npm run serve -- [options]`: the server's command line (see ./options.ts for the options). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../mock-api/index.ts';
import { OIDC_PREFIX } from '../oidc/index.ts';
import { SpecError } from '../openapi-kit/index.ts';
import { parseOptions, usage, UsageError } from './options.ts';
import { startServer, type RunningServer } from './server.ts';

/** `npm run serve -- [options]`: exit 0 after --help, 2 for a bad option, 1 when it cannot start. */
export async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`serve: ${error.message}`);
    process.exit(2);
  }
  if (parsed.help) {
    console.log(usage());
    process.exit(0);
  }
  const { options } = parsed;
  const distDir = resolve(options.distDir);
  if (!existsSync(resolve(distDir, 'index.html'))) {
    console.error(`serve: no build in ${distDir}: run 'npm run build' first (or 'npm start', which builds)`);
    process.exit(1);
  }
  let running: RunningServer;
  try {
    running = await startServer({
      ...options,
      distDir,
      onViolation: (message) => console.error(`Contract violation: ${message}`),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof ConfigError || error instanceof SpecError) console.error(`serve: ${error.message}`);
    else if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      console.error(`serve: cannot listen on ${options.host}:${options.port} (${code})`);
    } else throw error;
    process.exit(1);
  }
  console.log(`Circle is served on ${running.url} (API under ${running.url}/api/)`);
  if (options.issuer) console.log(`Sign-in: the API accepts access tokens of ${options.issuer}`);
  else console.log(`Sign-in: ${running.url}${OIDC_PREFIX} (members ada, grace and linus; password circle)`);
  if (options.strict) console.log('Strict: every API exchange is checked against openapi.yaml; violations are printed.');
  if (options.dataFile) console.log(`Data: ${options.dataFile} (a reset goes back to it)`);
  if (options.persistFile) console.log(`Persisted in ${options.persistFile}: every change is written before it is answered.`);
  if (options.scenarioFile) console.log(`Scenario: ${options.scenarioFile}`);
  const stop = () => {
    if (options.strict) {
      const { checked, violations } = running.exchanges();
      console.log(`contract: ${checked} exchanges checked, ${violations.length} violations`);
    }
    void running.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
