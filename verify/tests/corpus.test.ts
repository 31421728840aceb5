/**
 * verify on documents this repository did not write, each against a server that serves it:
 *
 * - three public documents of different shapes from @readme/oas-examples, served by Prism's mock as
 *   `npm run prism` serves Circle's: the Petstore (`/pets`, integer ids, an exploded array query),
 *   one with nested resources (`/2.0/repositories/{username}/{slug}/pullrequests/{pid}`) and one
 *   with a query-heavy search (Train Travel's `/trips`: required uuid and date-time parameters);
 * - Circle's own openapi.yaml grown by the Petstore's two paths, against Prism;
 * - a real stateful server installed from npm, json-server 0.17, with a document that describes it
 *   (verify/corpus/json-server-pets.yaml), and the same server with that document made to lie.
 *
 * Each run ends with a verdict (exit 0 or 1, never a wait), every operation has its line, and each
 * failure is one the server really has: the expected findings below are Prism's and json-server's
 * own behaviours, each named.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSpec } from '../../openapi-kit/node.ts';
import { freePort } from '../../testkit/index.ts';
import { EXIT, main } from '../cli.ts';
import type { RunResults } from '../results.ts';
import { ROOT, startPrismMock, type PrismProcess } from '../../testkit/index.ts';

const require = createRequire(import.meta.url);
const EXAMPLES = dirname(require.resolve('@readme/oas-examples/package.json'));
const SEED = '1';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verify-corpus-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs verify in this process; its exit code, what it printed and its JSON report. */
async function verify(spec: string, baseUrl: string, extra: string[] = []): Promise<{ code: number; out: string; run: RunResults }> {
  const json = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  let out = '';
  const code = await main(['--spec', spec, '--base-url', baseUrl, '--seed', SEED, '--quiet', '--json', json, ...extra], {
    out: (t) => (out += t),
    err: (t) => (out += t),
    progress: null,
  });
  expect(code, out).not.toBe(EXIT.couldNotRun);
  return { code, out, run: JSON.parse(readFileSync(json, 'utf8')) as RunResults };
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/**
 * How many operations a document's paths hold: what a verdict on every one of them counts. Read from
 * the raw document, not through openapi-kit's operationSpecs, which verify itself uses: an operation
 * both left out would not show.
 */
const operationCount = (paths: Record<string, unknown>): number =>
  Object.values(paths).reduce<number>((n, item) => n + Object.keys(item as object).filter((k) => METHODS.has(k)).length, 0);

/** Each operation's failure titles, by operationId. */
const failuresOf = (run: RunResults): Record<string, string[]> =>
  Object.fromEntries(
    run.operations.map((o) => [
      o.operationId,
      Object.values(o.checks)
        .flatMap((c) => c.failures.map((f) => f.title))
        .sort(),
    ]),
  );

/** Every failure of every operation matches one of the behaviours expected of it (and there are some). */
function expectOnly(run: RunResults, expected: Record<string, RegExp[]>): void {
  const failures = failuresOf(run);
  for (const [id, titles] of Object.entries(failures)) {
    const allowed = expected[id] ?? [];
    for (const title of titles)
      expect(
        allowed.some((re) => re.test(title)),
        `${id}: ${title}`,
      ).toBe(true);
  }
  for (const id of Object.keys(expected)) expect(failures[id], `${id} has no failure`).not.toHaveLength(0);
}

// Prism's own behaviours, the same on every document.
const NO_ANSWER_TO_BAD_JSON = /^no answer \(no answer within 2 s\)$/;
/** Prism checks that a secured request carries a token, not that a server issued it. */
const UNISSUED_TOKEN = / with a bearer token no server issued: expected 401, got 20[014]$/;
/** Prism takes a bearer token followed by more text (it looks at the header's start only). */
const MISPLACED_TOKEN = / with the member's own token followed by more text \(Bearer <token> verify\): expected 401, got 20[014]$/;
const TRIMMED_ID_ACCEPTED = /^an invalid request was accepted \(204\): path id \(root\) must be integer$/;

describe('verify against Prism, on public documents', () => {
  const served: PrismProcess[] = [];
  afterAll(async () => {
    await Promise.all(served.map((p) => p.stop()));
  });
  const serve = async (spec: string, readyPath: string) => {
    const prism = await startPrismMock({ spec, errors: false, quiet: true, readyPath });
    served.push(prism);
    return prism;
  };

  it('the Petstore: a verdict with the two faults Prism has there, every operation exercised', { timeout: 120_000 }, async () => {
    const spec = join(EXAMPLES, '3.0/json/petstore-expanded.json');
    const prism = await serve(spec, '/pets');
    const { code, run } = await verify(spec, prism.url, ['--request-timeout', '2']);
    expect(code).toBe(EXIT.notConformant);
    expect(run.summary).toMatchObject({ operations: 4, notExercised: 0 });
    expectOnly(run, {
      // Prism never answers a JSON body that does not parse.
      addPet: [NO_ANSWER_TO_BAD_JSON],
      // Prism reads the id ' ' (%20) as a number and deletes it.
      deletePet: [TRIMMED_ID_ACCEPTED],
    });
  });

  it('nested resources: Prism dies on a malformed %-escape, and verify stops there and says so', { timeout: 120_000 }, async () => {
    const spec = join(EXAMPLES, '3.0/json/link-example.json');
    const prism = await serve(spec, '/2.0/users/ada');
    const { code, out, run } = await verify(spec, prism.url, ['--request-timeout', '2']);
    expect(code).toBe(EXIT.notConformant);
    expect(out).toMatch(
      /note: stopped early: the server stopped answering \(connection refused\); the last request it got, GET \S+\/2\.0\/users\/%zz, went unanswered/,
    );
    const byId = Object.fromEntries(run.operations.map((o) => [o.operationId, o]));
    expect(byId.getUserByName?.status).toBe('fail');
    // The operations after the crash are not exercised, each saying why, none waited for.
    const rest = run.operations.filter((o) => o.operationId !== 'getUserByName');
    expect(rest.length).toBe(5);
    for (const o of rest) {
      expect(o.status, o.operationId).toBe('skip');
      expect(o.why).toMatch(/the server stopped answering/);
    }
  });

  it('a query-heavy search: required uuid and date-time parameters are generated, and the verdict is Prism’s (it takes any token)', {
    timeout: 120_000,
  }, async () => {
    const spec = join(EXAMPLES, '3.1/json/train-travel.json');
    const prism = await serve(spec, '/stations');
    const { code, run } = await verify(spec, prism.url, ['--request-timeout', '2', '--header', 'Authorization: Bearer any']);
    expect(code).toBe(EXIT.notConformant);
    expect(run.summary).toMatchObject({ operations: 7, notExercised: 0 });
    const trips = run.operations.find((o) => o.operationId === 'get-trips')!;
    expect(trips.checks['valid input'].status).toBe('pass');
    expect(trips.checks['valid input'].requests).toBeGreaterThan(0);
    // Every operation is secured (OAuth 2), and each takes a token no server issued, and every other
    // one the member's followed by more text (the misplaced token's variant turns with the operation).
    expectOnly(run, {
      ...Object.fromEntries(run.operations.map((o) => [o.operationId, [UNISSUED_TOKEN, MISPLACED_TOKEN]])),
      'create-booking': [
        UNISSUED_TOKEN,
        MISPLACED_TOKEN,
        NO_ANSWER_TO_BAD_JSON,
        /^the 201 body is not the record as sent: .*\(the answer is the document's example/,
      ],
      'create-booking-payment': [UNISSUED_TOKEN, MISPLACED_TOKEN, NO_ANSWER_TO_BAD_JSON],
    });
  });

  it("Circle's document grown by the Petstore's paths: a verdict on every operation", { timeout: 180_000 }, async () => {
    const circle = loadSpec() as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    const pets = JSON.parse(
      readFileSync(join(EXAMPLES, '3.0/json/petstore-expanded.json'), 'utf8').replaceAll(
        '#/components/schemas/Error',
        '#/components/schemas/PetError',
      ),
    ) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    // The Petstore's paths first: Prism dies on some of the hostile path values Circle's get (see
    // the nested document above), and what comes after its death is not exercised.
    const grown = structuredClone(circle);
    grown.paths = { ...pets.paths, ...circle.paths };
    grown.components.schemas.Pet = pets.components.schemas.Pet;
    grown.components.schemas.NewPet = pets.components.schemas.NewPet;
    grown.components.schemas.PetError = pets.components.schemas.Error;
    const spec = join(dir, 'grown.json');
    writeFileSync(spec, JSON.stringify(grown));
    const prism = await serve(spec, '/pets');
    const { code, run } = await verify(spec, prism.url, [
      '--request-timeout',
      '2',
      '--header',
      'Authorization: Bearer any',
      '--other-header',
      'Authorization: Bearer other',
    ]);
    expect(code).toBe(EXIT.notConformant);
    expect(run.summary.operations).toBe(operationCount(grown.paths));
    // Every operation has its verdict, or says why it has none (Prism died on a malformed %-escape).
    for (const o of run.operations.filter((o) => o.status === 'skip')) expect(o.why, o.operationId).toMatch(/the server stopped answering/);
    const failures = failuresOf(run);
    // The Petstore's paths get the verdict they get alone (Circle's own, against Prism, is
    // verify/tests/prism.test.ts's).
    expect(failures.findPets).toEqual([]);
    expect(failures['find pet by id']).toEqual([]);
    expect(failures.addPet?.every((t) => NO_ANSWER_TO_BAD_JSON.test(t))).toBe(true);
    expect(failures.deletePet?.every((t) => TRIMMED_ID_ACCEPTED.test(t))).toBe(true);
  });
});

/** json-server 0.17 on a fresh database file of its own, on a free port; stops with the test. */
async function startJsonServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const db = join(dir, `db-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(db, JSON.stringify({ pets: [{ id: 1, name: 'rex', tag: 'dog' }] }));
  const port = await freePort();
  const bin = resolve(dirname(require.resolve('json-server/package.json')), 'lib/cli/bin.js');
  const child = spawn(process.execPath, [bin, db, '--port', String(port), '--host', '127.0.0.1', '--quiet'], {
    cwd: dir,
    stdio: 'ignore',
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/pets`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('json-server did not start within 20 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('verify against a real stateful server: json-server 0.17', () => {
  const truthful = resolve(ROOT, 'verify/corpus/json-server-pets.yaml');

  /** What json-server does that its document says it must not: it stores whatever it is sent. */
  const JSON_SERVER: Record<string, RegExp[]> = {
    // It filters on any value, never refusing one.
    listPets: [/^an invalid request was accepted \(200\): query name /],
    // It stores a body that breaks the schema, and answers it back.
    createPet: [/^an invalid request was accepted \(201\): body /, /^the 201 answer breaks the document: body /],
    // Express answers a malformed %-escape in the path with 500, and a stored bad record is read back.
    getPet: [/^status 500 is not documented for getPet /, /^the 200 answer breaks the document: body /],
    replacePet: [/^an invalid request was accepted \(200\): body /, /^the 200 answer breaks the document: body /],
    // Its body parser refuses a JSON body that is not an object, even on a DELETE, with an HTML 400.
    deletePet: [/^status 400 is not documented for deletePet /],
  };

  it('with a document that tells the truth: exit 1, each finding one json-server really has', { timeout: 120_000 }, async () => {
    const server = await startJsonServer();
    try {
      const { code, run } = await verify(truthful, server.url);
      expect(code).toBe(EXIT.notConformant);
      expect(run.summary).toMatchObject({ operations: 5, notExercised: 0 });
      expectOnly(run, JSON_SERVER);
      // The stateful sequences (create, read, list, filter, replace, delete) hold.
      for (const o of run.operations) expect(o.checks.stateful.status, o.operationId).toBe('pass');
    } finally {
      await server.stop();
    }
  });

  it('with a document that lies (a wrong type, a missing status): the lying operations fail, and no other changes', {
    timeout: 120_000,
  }, async () => {
    const doc = parse(readFileSync(truthful, 'utf8')) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    // A wrong type: the delete's answer said to be a list. A missing status: the read's 404 left out.
    doc.paths['/pets/{id}']!.delete!.responses['200'] = {
      description: 'deleted',
      content: { 'application/json': { schema: { type: 'array' } } },
    };
    delete doc.paths['/pets/{id}']!.get!.responses['404'];
    const lying = join(dir, 'lying.json');
    writeFileSync(lying, JSON.stringify(doc));
    const before = await startJsonServer();
    let honest: RunResults;
    try {
      honest = (await verify(truthful, before.url)).run;
    } finally {
      await before.stop();
    }
    const server = await startJsonServer();
    try {
      const { code, run } = await verify(lying, server.url);
      expect(code).toBe(EXIT.notConformant);
      const told = failuresOf(honest);
      const now = failuresOf(run);
      expect(
        now.deletePet?.some((t) => /^the 200 answer breaks the document: body must be array/.test(t)),
        now.deletePet?.join('\n'),
      ).toBe(true);
      expect(
        now.getPet?.some((t) => /^status 404 is not documented for getPet/.test(t)),
        now.getPet?.join('\n'),
      ).toBe(true);
      for (const id of ['listPets', 'createPet', 'replacePet']) expect(now[id], id).toEqual(told[id]);
    } finally {
      await server.stop();
    }
  });
});
