// @vitest-environment node
/**
 * What the server starts with, from the files its options name: the data file, the scenario file,
 * and the data persisted in a file (--persist), written before a change is answered.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../mock-api/index.ts';
import { ADMIN, asAdmin, cleanAfterEachTest, file, start, work } from './server.test-support.ts';

cleanAfterEachTest();

describe('the files it starts with', () => {
  it('refuses a scenario file that cannot be read or is no JSON, and a data file that cannot be read, naming each', async () => {
    const missing = join(work, 'missing.json');
    await expect(start({ scenarioFile: missing })).rejects.toThrow(
      new ConfigError(`${missing}: the scenario file cannot be read (ENOENT)`),
    );
    await expect(start({ dataFile: missing })).rejects.toThrow(new ConfigError(`${missing}: the data file cannot be read (ENOENT)`));
    const broken = file('broken.json', '{');
    const refusal = await start({ scenarioFile: broken }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as Error).message).toMatch(
      new RegExp(`^${broken.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON \\(.+\\)$`),
    );
  });
});

describe('--persist', () => {
  it('writes the initial data to a file that does not exist yet', async () => {
    const path = join(work, 'db.json');
    await start({ persistFile: path, dataFile: file('data.json', { symbols: [] }) });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ symbols: [], profiles: [] });
  });

  it('leaves an existing file as it is until a change, then writes the change before answering it', async () => {
    const compact = JSON.stringify({ accounts: [{ id: 'a', name: 'Kept', currency: 'EUR', balance: 1 }] });
    const path = file('db.json', compact);
    const server = await start({ persistFile: path, authenticate: asAdmin });
    expect(readFileSync(path, 'utf8')).toBe(compact);
    expect((await fetch(`${server.url}/api/accounts`)).status).toBe(200);
    expect(readFileSync(path, 'utf8')).toBe(compact);
    expect((await fetch(`${server.url}/api/accounts/a`, { method: 'DELETE', headers: ADMIN })).status).toBe(204);
    expect(JSON.parse(readFileSync(path, 'utf8')).accounts).toEqual([]);
  });

  it("keeps a member's read marks, which a restart on the file reads back", async () => {
    const path = join(work, 'db.json');
    const first = await start({ persistFile: path, authenticate: asAdmin });
    expect((await fetch(`${first.url}/api/notifications/2/read`, { method: 'PUT', headers: ADMIN })).status).toBe(200);
    expect(JSON.parse(readFileSync(path, 'utf8')).inbox.readMarks).toEqual({ admin: { '2': true } });
    const again = await start({ persistFile: path, authenticate: asAdmin });
    expect(await (await fetch(`${again.url}/api/notifications/unread-count`, { headers: ADMIN })).json()).toEqual({ unread: 1 });
  });

  it('answers 500 naming the file when a change cannot be saved, and logs why', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const path = join(work, 'db.json');
    const server = await start({ persistFile: path, authenticate: asAdmin });
    // The temporary file the write goes through cannot be created.
    mkdirSync(join(work, '.db.json.tmp'));
    const answer = await fetch(`${server.url}/api/accounts/1`, { method: 'DELETE', headers: ADMIN });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await answer.json()).toEqual({
      status: 500,
      error: 'Internal Server Error',
      message: `The change could not be saved to ${path}; see the mock's log`,
    });
    expect(errors).toHaveBeenCalledWith(
      `The data could not be written to ${path}`,
      expect.objectContaining({ code: expect.stringMatching(/EISDIR/) }),
    );
  });
});
