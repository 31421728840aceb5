// @vitest-environment node
/**
 * What the mock answers before its routes: the answers `Prefer` asks for, read as Prism reads it,
 * and the statuses, delays and faults of a scenario file.
 */
import { getResponse, type HttpHandler } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Authenticate, unauthorized } from '../auth.ts';
import { createContract } from '../contract.ts';
import { createDatabase } from '../db.ts';
import { createJournal } from '../journal.ts';
import { asOpenApiDocument } from '../../openapi-kit/index.ts';
import { parseScenario } from '../scenario.ts';
import { loadSpecCached } from '../../openapi-kit/node.ts';
import { createHandlers } from './index.ts';
import { createRouter } from './route.ts';
import { scenarioHandlers } from './scenarios.ts';
import { error } from '../test/server.test-support.ts';

/** Signed in as an admin when the request carries `Bearer ok`, as a member with `Bearer member`. */
const authenticate: Authenticate = async (request) => {
  const header = request.headers.get('authorization');
  if (header === 'Bearer member') return { subject: 'grace', roles: ['member'] };
  if (header !== 'Bearer ok') throw unauthorized('Sign in: this operation needs a bearer access token');
  return { subject: 'ada', roles: ['member', 'admin'] };
};
const ADMIN = { authorization: 'Bearer ok' };

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function answer(handlers: HttpHandler[], path: string, init?: RequestInit): Promise<Answer | 'dropped'> {
  const response = await getResponse(handlers, new Request(`http://localhost/api${path}`, init));
  if (!response) throw new Error(`No answer to ${path}`);
  if (response.type === 'error') return 'dropped';
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The answer's status, content type and parsed body. */
const summary = (got: Answer | 'dropped') =>
  got === 'dropped' ? got : [got.status, got.headers.get('content-type'), got.text === '' ? null : JSON.parse(got.text)];

const prismProblem = (status: number, type: string, title: string, detail: string) => ({
  type: `https://stoplight.io/prism/errors#${type}`,
  title,
  status,
  detail,
});
const notDocumented = (detail: string) => prismProblem(404, 'NOT_FOUND', 'The server cannot find the requested content', detail);

describe('on the mock of openapi.yaml', () => {
  const contract = createContract(loadSpecCached());
  let draw = 0;
  let handlers: HttpHandler[];
  // Built for each test: how the handlers are made is then part of what the test covers.
  beforeEach(async () => {
    // Above every share: no rule of a list of shares applies unless a test draws lower.
    draw = 0.9;
    const scenario = parseScenario(
      {
        listAccounts: { status: 503 },
        getAccount: { status: 404 },
        createAccount: { fault: 'invalid-json' },
        patchAccount: { fault: 'invalid-json' },
        deleteAccount: { fault: 'drop' },
        listSymbols: { delay: 1000 },
        getSymbol: [
          { status: 500, rate: 0.25 },
          { delay: 40, rate: 0.25 },
        ],
        getMyProfile: { status: 500 },
        deleteProfile: { fault: 'drop' },
      },
      contract.spec,
      'scenario.json',
    );
    handlers = createHandlers({
      contract,
      db: await createDatabase(contract),
      journal: createJournal(10),
      basePath: '/api',
      anyOrigin: true,
      delayMs: 0,
      scenario,
      random: () => draw,
      authenticate,
    });
  });
  const call = (path: string, init?: RequestInit) => answer(handlers, path, init);

  describe('Prefer', () => {
    it('code answers the operation’s documented answer for that status, with its first example', async () => {
      const got = await call('/symbols/1', { headers: { prefer: 'code=404' } });
      expect(summary(got)).toEqual([404, 'application/json', error(404, 'Not Found', "Record '9' not found in collection 'symbols'")]);
    });

    it('code gives the headers the answer documents with their examples, and changes no data', async () => {
      const got = await call('/accounts', { method: 'POST', headers: { prefer: 'code=201', ...ADMIN } });
      expect(summary(got)).toEqual([201, 'application/json', { id: '4', name: 'Event budget', currency: 'EUR', balance: 300 }]);
      expect(got !== 'dropped' && got.headers.get('location')).toBe('/api/symbols/4');
      const deleted = await call('/symbols/1', { method: 'DELETE', headers: { prefer: 'code=204', ...ADMIN } });
      expect(summary(deleted)).toEqual([204, null, null]);
      expect(summary(await call('/symbols/1'))).toEqual([
        200,
        'application/json',
        { id: '1', code: 'MSFT', entity: 'Microsoft Corporation' },
      ]);
    });

    it('example answers the example of that name of the lowest 2xx answer, or of the code asked for', async () => {
      const got = await call('/notifications', { headers: { prefer: 'example=notifications' } });
      expect(got !== 'dropped' && got.status).toBe(200);
      expect(summary(got)[2]).toEqual([
        {
          id: '1',
          title: 'Welcome to Circle',
          body: 'Your community is waiting for you.',
          level: 'info',
          read: false,
          createdAt: '2026-11-20T10:00:00Z',
        },
      ]);
      const mismatch = await call('/symbols', { method: 'POST', headers: { prefer: 'code=400, example=mismatch', ...ADMIN } });
      expect(summary(mismatch)).toEqual([
        400,
        'application/json',
        error(400, 'Bad Request', "Id in the URL ('1') does not match the id in the body ('2')"),
      ]);
    });

    it('answers Prism’s 404 problem for a code the operation does not document', async () => {
      const got = await call('/symbols/1', { headers: { prefer: 'code=418' } });
      expect(summary(got)).toEqual([
        404,
        'application/problem+json',
        notDocumented('Requested status code 418 is not defined in the document.'),
      ]);
    });

    it('answers Prism’s 404 problem for an example the answer does not have', async () => {
      const got = await call('/notifications', { headers: { prefer: 'example=nope' } });
      expect(summary(got)).toEqual([
        404,
        'application/problem+json',
        notDocumented('Response for contentType: application/json and exampleKey: nope does not exist.'),
      ]);
    });

    it('answers Prism’s 404 problem for an answer with no example, naming its media type', async () => {
      const got = await call('/user/profile/p-1/avatar', { headers: { prefer: 'code=200', authorization: 'Bearer ok' } });
      expect(summary(got)).toEqual([
        404,
        'application/problem+json',
        notDocumented('First example for contentType: image/png does not exist.'),
      ]);
    });

    it('answers Prism’s 422 problem for a preference it cannot read, on any path', async () => {
      for (const path of ['/symbols', '/nothing']) {
        const got = await call(path, { headers: { prefer: 'code=abc' } });
        expect(summary(got)).toEqual([
          422,
          'application/problem+json',
          prismProblem(422, 'UNPROCESSABLE_ENTITY', 'Invalid request', "Prefer: code must be a three-digit status, not 'abc'"),
        ]);
      }
    });

    it('asks a secured operation for the caller first: only a signed-in caller gets the answer asked for', async () => {
      const anonymous = await call('/user/profile/myprofile', { headers: { prefer: 'code=200' } });
      expect(summary(anonymous)).toEqual([
        401,
        'application/json',
        error(401, 'Unauthorized', 'Sign in: this operation needs a bearer access token'),
      ]);
      const signedIn = await call('/user/profile/myprofile', { headers: { prefer: 'code=401', authorization: 'Bearer ok' } });
      expect(summary(signedIn)).toEqual([
        401,
        'application/json',
        error(401, 'Unauthorized', 'Sign in: this operation needs a bearer access token'),
      ]);
      expect(signedIn !== 'dropped' && signedIn.headers.get('www-authenticate')).toBe('Bearer realm="circle"');
      const anonymousExample = await call('/user/profile/p-1/avatar', { headers: { prefer: 'example=anything' } });
      expect(summary(anonymousExample)).toEqual([
        401,
        'application/json',
        error(401, 'Unauthorized', 'Sign in: this operation needs a bearer access token'),
      ]);
    });

    it('refuses a member the asked-for answer of an operation that needs an admin (403), and another site its change (403)', async () => {
      const member = await call('/accounts', { method: 'POST', headers: { prefer: 'code=201', authorization: 'Bearer member' } });
      expect(summary(member)).toEqual([403, 'application/json', error(403, 'Forbidden', 'This operation needs the admin role')]);
      const crossSite = await call('/subscription', { method: 'POST', headers: { prefer: 'code=201', 'sec-fetch-site': 'cross-site' } });
      expect(summary(crossSite)).toEqual([
        403,
        'application/json',
        error(
          403,
          'Forbidden',
          'Refused: a request from another site (Sec-Fetch-Site cross-site) without a bearer token cannot change anything',
        ),
      ]);
    });

    it('judges the caller before any delay: a refused request is answered at once, an admitted one after its delay', async () => {
      const refusals: Array<[Record<string, string>, number]> = [
        [{}, 401],
        [{ authorization: 'Bearer member' }, 403],
        [{ 'sec-fetch-site': 'cross-site' }, 403],
      ];
      for (const [headers, status] of refusals) {
        const started = performance.now();
        const got = await call('/symbols/1', { method: 'DELETE', headers: { prefer: 'delay=30000', ...headers } });
        expect(summary(got)[0], JSON.stringify(headers)).toBe(status);
        expect(performance.now() - started, JSON.stringify(headers)).toBeLessThan(5_000);
      }
      const started = performance.now();
      expect(summary(await call('/symbols/1', { method: 'DELETE', headers: { prefer: 'delay=60', ...ADMIN } }))[0]).toBe(204);
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    });

    it('refuses at once below an alias and on a path that is no operation; admitted below an alias, waits', async () => {
      const refusals: Array<[string, string, Record<string, string>, number]> = [
        ['DELETE', '/notifications/own/1', {}, 401],
        ['DELETE', '/notifications/own/1', { authorization: 'Bearer member' }, 403],
        ['GET', '/nothing/at/all', {}, 404],
        ['GET', '/symbols/1/more', {}, 404],
      ];
      for (const [method, path, headers, status] of refusals) {
        const started = performance.now();
        const got = await call(path, { method, headers: { prefer: 'delay=30000', ...headers } });
        expect([method, path, summary(got)[0]]).toEqual([method, path, status]);
        expect(performance.now() - started, `${method} ${path}`).toBeLessThan(5_000);
      }
      const started = performance.now();
      expect(summary(await call('/notifications/own/1', { method: 'DELETE', headers: { prefer: 'delay=60', ...ADMIN } }))[0]).toBe(204);
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    });

    it('leaves a path that is no operation to the routes', async () => {
      const got = await call('/nothing', { headers: { prefer: 'code=200' } });
      expect(summary(got)).toEqual([404, 'application/json', error(404, 'Not Found', "Collection 'nothing' not found")]);
    });

    it('delay holds the answer that long, instead of the scenario’s delay', async () => {
      let started = performance.now();
      expect(summary(await call('/symbols/2', { headers: { prefer: 'delay=60' } }))[0]).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
      started = performance.now();
      expect(summary(await call('/symbols', { headers: { prefer: 'delay=0' } }))[0]).toBe(200);
      expect(performance.now() - started).toBeLessThan(900);
    });
  });

  describe('a scenario rule', () => {
    it('answers a status the operation documents as documented', async () => {
      expect(summary(await call('/accounts/1'))).toEqual([
        404,
        'application/json',
        error(404, 'Not Found', "Record '9' not found in collection 'symbols'"),
      ]);
    });

    it('answers a status the operation does not document with the Error body naming the operation', async () => {
      expect(summary(await call('/accounts'))).toEqual([
        503,
        'application/json',
        error(503, 'Service Unavailable', "The mock's scenario answers 503 to listAccounts"),
      ]);
    });

    it('invalid-json answers the operation’s first 2xx (else 200) with a body cut off mid-JSON', async () => {
      for (const [method, status] of [
        ['POST', 201],
        ['PATCH', 200],
      ] as const) {
        const got = await call('/accounts/1'.slice(0, method === 'POST' ? 9 : 11), { method, headers: ADMIN });
        expect([
          method,
          got !== 'dropped' && got.status,
          got !== 'dropped' && got.headers.get('content-type'),
          got !== 'dropped' && got.text,
        ]).toEqual([method, status, 'application/json', '{"id": "1", "name": ']);
      }
    });

    it('drop closes the connection with no answer', async () => {
      expect(await call('/accounts/1', { method: 'DELETE', headers: ADMIN })).toBe('dropped');
    });

    it('delay holds the answer, then the route answers', async () => {
      const started = performance.now();
      draw = 0.3;
      expect(summary(await call('/symbols/3'))).toEqual([200, 'application/json', { id: '3', code: 'GOOG', entity: 'Alphabet Inc.' }]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    });

    it('takes only its share of the requests', async () => {
      draw = 0.2;
      expect(summary(await call('/symbols/3'))).toEqual([
        500,
        'application/json',
        error(500, 'Internal Server Error', "The mock's scenario answers 500 to getSymbol"),
      ]);
      draw = 0.5;
      expect(summary(await call('/symbols/3'))[0]).toBe(200);
    });

    it('of a secured operation answers only a signed-in caller', async () => {
      expect(summary(await call('/user/profile/myprofile'))[0]).toBe(401);
      expect(summary(await call('/user/profile/myprofile', { headers: { authorization: 'Bearer ok' } }))).toEqual([
        500,
        'application/json',
        error(500, 'Internal Server Error', "The mock's scenario answers 500 to getMyProfile"),
      ]);
      const anonymousDrop = await call('/user/profile/p-1', { method: 'DELETE' });
      expect(summary(anonymousDrop)).toEqual([
        401,
        'application/json',
        error(401, 'Unauthorized', 'Sign in: this operation needs a bearer access token'),
      ]);
      expect(await call('/user/profile/p-1', { method: 'DELETE', headers: { authorization: 'Bearer ok' } })).toBe('dropped');
    });
  });
});

/** A document written to show which answer is picked when no code is asked for: each has an example named `pick`. */
const DOC = `
openapi: 3.1.0
info: { title: Answers, version: '1' }
paths:
  /late:
    get:
      operationId: lateSuccess
      responses:
        '100': { description: Continue. }
        '404': { description: Gone., content: { application/json: { examples: { pick: { value: { from: 404 } } } } } }
        '202': { description: Accepted., content: { application/json: { examples: { pick: { value: { from: 202 } } } } } }
        '201':
          description: Made.
          headers:
            X-Count: { schema: { type: integer }, example: 3 }
            X-Plain: { schema: { type: string } }
          content:
            text/plain: { examples: { pick: { value: made } } }
            application/json: { examples: { pick: { value: { from: 201 } } } }
  /fallback:
    get:
      operationId: onlyDefault
      responses:
        '404': { description: Gone., content: { application/json: { examples: { pick: { value: { from: 404 } } } } } }
        default: { description: Anything., content: { text/plain: { examples: { pick: { value: 42 } } } } }
  /ranged:
    get:
      operationId: ranged
      responses:
        2XX: { description: Fine., content: { text/csv: { examples: { pick: { value: 'a,b' } } } } }
  /errors:
    get:
      operationId: onlyErrors
      responses:
        '409': { description: Taken., content: { application/json: { examples: { pick: { value: { from: 409 } } } } } }
        '400': { description: Bad., content: { application/json: { examples: { pick: { value: { from: 400 } } } } } }
components:
  schemas:
    Nothing: { type: string }
`;

describe('the answer picked without a code (as Prism picks it)', () => {
  const contract = createContract(asOpenApiDocument(parse(DOC)));
  let handlers: HttpHandler[];
  beforeEach(async () => {
    // The handlers read only the document; the database is any.
    const db = await createDatabase(createContract(loadSpecCached()));
    handlers = scenarioHandlers(
      { contract, db, route: createRouter(contract, '*/api', authenticate).route, basePath: '/api', authenticate },
      '*/api',
      { delayMs: 0, scenario: { lateSuccess: [{ fault: 'invalid-json', rate: 0.5 }] }, random: () => 0.1 },
    );
  });
  const pick = async (path: string) => {
    const got = await answer(handlers, path, { headers: { prefer: 'example=pick' } });
    return got === 'dropped' ? got : [got.status, got.headers.get('content-type'), got.text];
  };

  it('is the lowest 2xx, in its JSON media type first, with the headers that have an example', async () => {
    expect(await pick('/late')).toEqual([201, 'application/json', '{"from":201}']);
    const got = await answer(handlers, '/late', { headers: { prefer: 'example=pick' } });
    expect(got !== 'dropped' && [got.headers.get('x-count'), got.headers.get('x-plain')]).toEqual(['3', null]);
  });

  it('else default, answered 200, a body of another media type as text', async () => {
    expect(await pick('/fallback')).toEqual([200, 'text/plain', '42']);
  });

  it('else the first documented (the lowest status), answered 200 when its status is a range', async () => {
    expect(await pick('/errors')).toEqual([400, 'application/json', '{"from":400}']);
    expect(await pick('/ranged')).toEqual([200, 'text/csv', 'a,b']);
  });

  it('while an invalid-json fault answers the lowest 2xx', async () => {
    const got = await answer(handlers, '/late');
    expect(got !== 'dropped' && [got.status, got.text]).toEqual([201, '{"id": "1", "name": ']);
  });
});
