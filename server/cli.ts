/** `npm run serve -- [options]`: the server's command line (see ./options.ts for the options). */
import { main } from './server.ts';

await main(process.argv.slice(2));
