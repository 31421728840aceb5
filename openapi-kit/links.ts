/**
 * OpenAPI links: how the values of one answer feed the next request. A response's `links` name a
 * target operation (`operationId`, or an `operationRef` to one of this document's operations) and
 * give its parameters and body as runtime expressions (`$response.body#/id`,
 * `$response.header.Location`, `$request.path.id`) or constants. This module reads them and
 * evaluates the expressions against an exchange; verify follows them.
 */
import { atPointer, follow, isRecord, pointerToken, SpecError, type OpenApiDocument } from './document.ts';
import type { OperationSpec } from './operations.ts';

export interface LinkSpec {
  /** `createAccount 201 → getAccount (GetAccountById)`: unique in a document. */
  key: string;
  name: string;
  from: string;
  status: string;
  to: string;
  /** Parameter name (optionally `path.id`, `query.q`) → expression or constant. */
  parameters: Record<string, unknown>;
  requestBody?: unknown;
  description: string;
}

/** What a runtime expression may read: the request sent and the answer it got. */
export interface LinkContext {
  url: string;
  method: string;
  statusCode: number;
  request: { path: Record<string, string>; query: URLSearchParams; headers: Headers; body: unknown };
  response: { headers: Headers; body: unknown };
}

/** The operation an `operationRef` names (`#/paths/~1accounts~1{id}/get`), as an operationId. */
function operationOfRef(ref: string, ops: readonly OperationSpec[]): string | undefined {
  const match = /^#\/paths\/([^/]+)\/([a-z]+)$/.exec(ref);
  if (!match) return undefined;
  const path = match[1]!.replaceAll('~1', '/').replaceAll('~0', '~');
  return ops.find((o) => o.path === path && o.method === match[2]!.toUpperCase())?.id;
}

/** Every link of every response of the document, each naming an operation of it. */
export function linkSpecs(doc: OpenApiDocument, ops: readonly OperationSpec[]): LinkSpec[] {
  const out: LinkSpec[] = [];
  for (const op of ops) {
    for (const [status, response] of Object.entries(op.responses)) {
      const node = atPointer(doc, `#${response.pointer}`);
      if (!isRecord(node) || !isRecord(node.links)) continue;
      for (const [name, raw] of Object.entries(node.links)) {
        const at = `${response.pointer}/links/${pointerToken(name)}`;
        const link = follow(doc, raw, at).node;
        const to =
          typeof link.operationId === 'string'
            ? link.operationId
            : typeof link.operationRef === 'string'
              ? operationOfRef(link.operationRef, ops)
              : undefined;
        if (to === undefined || !ops.some((o) => o.id === to))
          throw new SpecError(
            `the link ${name} of ${op.id} ${status} names no operation of the document (${String(link.operationId ?? link.operationRef)})`,
          );
        const spec: LinkSpec = {
          key: `${op.id} ${status} → ${to} (${name})`,
          name,
          from: op.id,
          status,
          to,
          parameters: isRecord(link.parameters) ? link.parameters : {},
          description: typeof link.description === 'string' ? link.description : '',
        };
        if ('requestBody' in link) spec.requestBody = link.requestBody;
        out.push(spec);
      }
    }
  }
  return out;
}

/** Thrown when an expression reads what the exchange does not have (a field the answer lacks). */
export class UnresolvedExpression extends Error {}

const EXPRESSION = /^\$(url|method|statusCode|request\.|response\.)/;

/** The value of a runtime expression, `{expr}` embedded in a string, or a constant as it is. */
export function evaluate(value: unknown, ctx: LinkContext): unknown {
  if (typeof value !== 'string') return value;
  if (EXPRESSION.test(value)) return evaluateOne(value, ctx);
  if (!value.includes('{$')) return value;
  return value.replace(/\{(\$[^}]+)\}/g, (_, expression: string) => String(evaluateOne(expression, ctx)));
}

function evaluateOne(expression: string, ctx: LinkContext): unknown {
  if (expression === '$url') return ctx.url;
  if (expression === '$method') return ctx.method;
  if (expression === '$statusCode') return ctx.statusCode;
  const match = /^\$(request|response)\.(header|query|path|body)(?:\.([^#]+))?(?:#(.*))?$/.exec(expression);
  if (!match) throw new UnresolvedExpression(`'${expression}' is no runtime expression`);
  const [, source, part, name, pointer] = match as unknown as [
    string,
    'request' | 'response',
    string,
    string | undefined,
    string | undefined,
  ];
  const side = source === 'request' ? ctx.request : ctx.response;
  let found: unknown;
  if (part === 'header' && name) found = side.headers.get(name) ?? undefined;
  else if (part === 'query' && name && source === 'request') found = ctx.request.query.get(name) ?? undefined;
  else if (part === 'path' && name && source === 'request') found = ctx.request.path[name];
  else if (part === 'body') found = pointer === undefined || pointer === '' ? side.body : atPointer(side.body, `#${pointer}`);
  if (found === undefined || found === null) throw new UnresolvedExpression(`${expression} has no value in this exchange`);
  return found;
}
