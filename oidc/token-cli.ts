/**
 * `npm run token -- [--user NAME] [--base-url URL] [--json]`: signs a member in to a running
 * mock server's provider and prints an access token, e.g. for
 * `npm run verify -- --header "Authorization: Bearer $(npm run -s token)"` or for curl.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_PASSWORD } from './accounts.ts';
import { SignInError, signInAs } from './sign-in-flow.ts';

export const USAGE = `Usage: npm run token -- [--user ada|grace|linus] [--password P] [--base-url URL] [--json]

Signs the member in at URL/oidc (default http://127.0.0.1:8080, a running 'npm start') and prints
the access token; --json prints every token and its lifetime.`;

export interface TokenOptions {
  user: string;
  password: string;
  baseUrl: string;
  json: boolean;
}

/** The command's options, or null for --help; a SignInError names what is wrong with them. */
export function parseTokenArgs(argv: readonly string[]): TokenOptions | null {
  const options = { user: 'ada', password: DEMO_PASSWORD, baseUrl: 'http://127.0.0.1:8080', json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new SignInError(`${arg} needs a value`);
      return next;
    };
    if (arg === '--help' || arg === '-h') return null;
    else if (arg === '--user') options.user = value();
    else if (arg === '--password') options.password = value();
    else if (arg === '--base-url') options.baseUrl = value();
    else if (arg === '--json') options.json = true;
    else throw new SignInError(`unknown option '${arg}' (--help lists them)`);
  }
  return options;
}

/** What `npm run token` does with `argv` (the arguments after `--`): prints, and answers the exit code. */
export async function runTokenCommand(argv: readonly string[]): Promise<number> {
  try {
    const options = parseTokenArgs(argv);
    if (!options) {
      console.log(USAGE);
    } else {
      const tokens = await signInAs(options.baseUrl, options.user, options.password);
      console.log(options.json ? JSON.stringify(tokens, null, 2) : tokens.accessToken);
    }
    return 0;
  } catch (error) {
    const reason = error instanceof SignInError ? error.message : `cannot reach ${String((error as Error).cause ?? error)}`;
    console.error(`token: ${reason}`);
    return 1;
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) process.exitCode = await runTokenCommand(process.argv.slice(2));
