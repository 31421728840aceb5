/**
 * `npm run token -- [--user NAME] [--base-url URL] [--json]`: signs a member in to a running
 * mock server's provider and prints an access token, e.g. for
 * `npm run verify -- --header "Authorization: Bearer $(npm run -s token)"` or for curl.
 */
import { DEMO_PASSWORD } from './accounts.ts';
import { SignInError, signInAs } from './sign-in-flow.ts';

const USAGE = `Usage: npm run token -- [--user ada|grace|linus] [--password P] [--base-url URL] [--json]

Signs the member in at URL/oidc (default http://127.0.0.1:8080, a running 'npm start') and prints
the access token; --json prints every token and its lifetime.`;

function parse(argv: string[]) {
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

try {
  const options = parse(process.argv.slice(2));
  if (!options) {
    console.log(USAGE);
  } else {
    const tokens = await signInAs(options.baseUrl, options.user, options.password);
    console.log(options.json ? JSON.stringify(tokens, null, 2) : tokens.accessToken);
  }
} catch (error) {
  const reason = error instanceof SignInError ? error.message : `cannot reach ${String((error as Error).cause ?? error)}`;
  console.error(`token: ${reason}`);
  process.exitCode = 1;
}
