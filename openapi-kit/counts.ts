/**
 * Answers that count what a list answers, as a document states it with `x-count-of` on a response:
 * `{ operationId, parameters, field }` says that the answer's `field` is the number of items the
 * operation `operationId` answers the same caller, with those query parameters, right after.
 */
import { atPointer, isRecord, SpecError, type OpenApiDocument } from './document.ts';
import type { OperationSpec } from './operations.ts';

export interface CountSpec {
  /** The operation whose answer counts. */
  op: OperationSpec;
  /** Its status whose answer carries the count (a 2xx). */
  status: string;
  /** The list it counts the items of. */
  of: OperationSpec;
  /** The list's query parameters, by name. */
  parameters: Record<string, string>;
  /** The answer's field that holds the count. */
  field: string;
}

export function countSpecs(doc: OpenApiDocument, ops: readonly OperationSpec[]): CountSpec[] {
  const counts: CountSpec[] = [];
  for (const op of ops) {
    for (const response of Object.values(op.responses)) {
      const raw = atPointer(doc, response.pointer);
      const stated = isRecord(raw) ? raw['x-count-of'] : undefined;
      if (stated === undefined) continue;
      const where = `x-count-of of ${op.method} ${op.path}'s ${response.status}`;
      if (!/^2\d\d$/.test(response.status)) throw new SpecError(`${where}: only a 2xx answer counts`);
      if (!isRecord(stated) || typeof stated.operationId !== 'string' || typeof stated.field !== 'string')
        throw new SpecError(`${where} must be { operationId, field, parameters? }`);
      const of = ops.find((o) => o.id === stated.operationId);
      if (of?.method !== 'GET') throw new SpecError(`${where}: '${stated.operationId}' is no GET operation of the document`);
      const parameters = stated.parameters ?? {};
      if (
        !isRecord(parameters) ||
        !Object.entries(parameters).every(
          ([name, value]) => typeof value === 'string' && of.params.some((p) => p.in === 'query' && p.name === name),
        )
      )
        throw new SpecError(`${where}: parameters must map query parameters of ${stated.operationId} to strings`);
      counts.push({ op, status: response.status, of, parameters: parameters as Record<string, string>, field: stated.field });
    }
  }
  return counts;
}
