/**
 * Values of a path parameter that destroy every caller's data, as the document states them
 * (`x-destructive`): a request carrying one is sent only to a server the run started itself.
 */
import { isRecord, textOf, type OpenApiSpec, type OperationSpec } from '../openapi-kit/index.ts';
import type { GeneratedRequest } from './generated-request.ts';

/** A parameter's values that destroy every caller's data, as an operation's `x-destructive` states them. */
export interface Destructive {
  op: OperationSpec;
  param: string;
  values: readonly string[];
}

/** The document's destructive values (`x-destructive: { name: [reset] }`): sent only to a server this run started. */
export function destructiveValues(spec: Pick<OpenApiSpec, 'operations' | 'doc'>): Destructive[] {
  const out: Destructive[] = [];
  for (const op of spec.operations) {
    const raw = spec.doc.paths[op.path]?.[op.method.toLowerCase()];
    const stated = isRecord(raw) ? raw['x-destructive'] : undefined;
    if (!isRecord(stated)) continue;
    for (const [param, values] of Object.entries(stated))
      if (Array.isArray(values)) out.push({ op, param, values: values.map((v) => String(v).toLowerCase()) });
  }
  return out;
}

export function isDestructive(destructive: readonly Destructive[], op: OperationSpec, r: GeneratedRequest): boolean {
  return destructive.some((d) => {
    if (d.op.id !== op.id) return false;
    const v = r.path[d.param];
    return v?.kind === 'literal' && d.values.includes(textOf(v.value).toLowerCase());
  });
}
