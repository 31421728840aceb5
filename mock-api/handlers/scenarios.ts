/**
 * What happens before a route answers: who may call (./gate.ts), then the delay, and the answers
 * asked for by `Prefer` or by the scenario file (mock-api/scenario.ts). Returning nothing lets
 * the request go on to the routes.
 */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { httpError } from '../errors.ts';
import { isJsonMedia, responseFor, type OpenApiSpec, type OperationSpec, type ResponseSpec } from '../../openapi-kit/index.ts';
import { parsePrefer, pickRule, type Preferences, type Scenario } from '../scenario.ts';
import type { MockContext } from './context.ts';
import { rewriteAlias } from './aliases.ts';
import { createGate } from './gate.ts';

export interface ScenarioOptions {
  /** The delay of every answer, unless `Prefer: delay` or a scenario rule gives another. */
  delayMs: number;
  scenario: Scenario;
  random?: () => number;
}

/** A refusal worded as Prism words it (application/problem+json), so that client code handles both alike. */
function problem(status: number, type: string, title: string, detail: string): Response {
  return HttpResponse.json(
    { type: `https://stoplight.io/prism/errors#${type}`, title, status, detail },
    { status, headers: { 'content-type': 'application/problem+json' } },
  );
}

const preferProblem = (detail: string) => problem(422, 'UNPROCESSABLE_ENTITY', 'Invalid request', detail);
const notFound = (detail: string) => problem(404, 'NOT_FOUND', 'The server cannot find the requested content', detail);

/** The answer Prism picks without a code: the lowest 2xx, else `default`, else the first documented. */
function defaultResponse(op: OperationSpec): ResponseSpec | undefined {
  const success = op.statuses.filter((s) => /^2\d\d$/.test(s)).sort();
  const status = success[0] ?? (op.responses.default ? 'default' : op.statuses[0]);
  return status === undefined ? undefined : op.responses[status];
}

/** The operation's documented answer for a status (or its default one), with its first or named example. */
function documentedAnswer(op: OperationSpec, { code, example }: Preferences): Response {
  const response = code === undefined ? defaultResponse(op) : responseFor(op, code);
  if (!response) return notFound(`Requested status code ${code} is not defined in the document.`);
  const status = code ?? (/^\d{3}$/.test(response.status) ? Number(response.status) : 200);
  const headers: Record<string, string> = {};
  for (const header of response.headers) if (header.example !== undefined) headers[header.name] = String(header.example);
  const content = response.content?.find((c) => c.media === 'application/json') ?? response.content?.[0];
  if (!content) return new HttpResponse(null, { status, headers });
  const value = example === undefined ? content.examples[0] : content.namedExamples[example];
  if (value === undefined) {
    return notFound(
      example === undefined
        ? `First example for contentType: ${content.media} does not exist.`
        : `Response for contentType: ${content.media} and exampleKey: ${example} does not exist.`,
    );
  }
  headers['content-type'] = content.media;
  return new HttpResponse(isJsonMedia(content.media) ? JSON.stringify(value) : String(value), { status, headers });
}

/** A status the scenario asks for: the documented answer when there is one, else the Error body. */
function injectedStatus(op: OperationSpec, status: number): Response {
  if (responseFor(op, status)) return documentedAnswer(op, { code: status });
  return httpError(status, `The mock's scenario answers ${status} to ${op.id}`);
}

/** A 2xx of the operation whose body is cut off mid-JSON. */
function invalidJson(op: OperationSpec): Response {
  const status = Number(op.statuses.find((s) => /^2\d\d$/.test(s)) ?? 200);
  return new HttpResponse('{"id": "1", "name": ', { status, headers: { 'content-type': 'application/json' } });
}

export function scenarioHandlers(
  { contract, basePath, authenticate }: MockContext,
  prefix: string,
  options: ScenarioOptions,
): HttpHandler[] {
  const spec: OpenApiSpec = contract.spec;
  const { delayMs, scenario, random = Math.random } = options;
  const admit = createGate(authenticate);
  return [
    http.all(`${prefix}/*`, async ({ request }) => {
      const path = new URL(request.url).pathname.slice(basePath.length);
      // A path below an alias is answered as the collection's (./index.ts): judged as that operation.
      const op =
        spec.match(request.method, path) ?? spec.match(request.method, `/${rewriteAlias(path.split('/').filter(Boolean).join('/'))}`);
      const prefer = parsePrefer(request.headers.get('prefer'));
      // No operation: the routes answer 404 or 405 at once. A refusal never waits for a delay.
      if (!op) return 'problem' in prefer ? preferProblem(prefer.problem) : undefined;
      // Security comes first, as in Prism: a refused caller is answered at once, and neither holds
      // a connection with a delay nor gets an asked-for answer of an operation it may not call.
      try {
        await admit(request, op);
      } catch (error) {
        if (error instanceof Response) return error;
        // A check that fails for another reason than a refusal is the mock's failure, never a way in.
        console.error(`Mock backend failure in ${op.id}`, error);
        return httpError(500, 'The mock backend failed; see its log');
      }
      if ('problem' in prefer) return preferProblem(prefer.problem);
      const { preferences } = prefer;
      const rules = scenario[op.id];
      const rule = rules ? pickRule(rules, random) : undefined;
      const wait = preferences.delay ?? rule?.delay ?? delayMs;
      if (wait > 0) await delay(wait);
      if (preferences.code !== undefined || preferences.example !== undefined) return documentedAnswer(op, preferences);
      if (rule?.fault === 'drop') return HttpResponse.error();
      if (rule?.fault === 'invalid-json') return invalidJson(op);
      if (rule?.status !== undefined) return injectedStatus(op, rule.status);
      return undefined;
    }),
  ];
}
