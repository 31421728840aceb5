/** Maintenance commands: `POST /commands/reset` restores the initial data; any other command answers 500. */
import type { HttpHandler } from 'msw';
import { httpError } from '../errors.ts';
import type { MockContext } from './context.ts';

export function commandHandlers({ route, db }: MockContext): HttpHandler[] {
  const commands: Record<string, () => Promise<void>> = {
    reset: () => db.reset(),
  };
  return [
    route('post', '/commands/{name}', async ({ params: { name } }) => {
      if (!Object.hasOwn(commands, name)) throw httpError(500, `Unknown command '${name}'`);
      await commands[name]!();
      return { status: 204 };
    }),
  ];
}
