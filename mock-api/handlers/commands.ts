/**
 * Maintenance commands, an admin's (the router checks the role): `POST /commands/reset` restores
 * the initial data; a name that breaks its schema answers 400, any other command 500.
 */
import type { HttpHandler } from 'msw';
import { httpError } from '../errors.ts';
import type { MockContext } from './context.ts';

export function commandHandlers({ route, db, contract }: MockContext): HttpHandler[] {
  const commands: Record<string, () => Promise<void>> = {
    reset: () => db.reset(),
  };
  const nameParam = contract.spec.byId('runCommand').params.find((p) => p.in === 'path' && p.name === 'name');
  return [
    route('post', '/commands/{name}', async ({ params: { name } }) => {
      const problem = nameParam ? contract.checkAt(nameParam.pointer, name, "path parameter 'name'") : null;
      if (problem) throw httpError(400, problem);
      if (!Object.hasOwn(commands, name)) throw httpError(500, `Unknown command '${name}'`);
      await commands[name]!();
      return { status: 204 };
    }),
  ];
}
