/**
 * Ids no record has, of the shapes id schemas take (text, a number, a UUID): what a request that
 * must not touch real data is sent to.
 */
import { decodeParam, type OpenApiSpec, type OperationSpec } from '../openapi-kit/index.ts';

/** An id no record has: what a request that must not touch real data is sent to. */
export const MISSING_ID = 'verify-missing-0';

/** Ids no record is likely to have, of the shapes id schemas take: text, a number, a UUID. */
const MISSING_CANDIDATES = [MISSING_ID, '999999937', '00000000-0000-4000-8000-0000000a0b0c', 'zz9'];

/** An id no record has that the operation's path parameters accept (MISSING_ID when none of the candidates fits). */
export function missingId(spec: Pick<OpenApiSpec, 'doc' | 'validator'>, op: OperationSpec): string {
  const { doc, validator } = spec;
  const params = op.params.filter((p) => p.in === 'path');
  return (
    MISSING_CANDIDATES.find((id) => params.every((p) => validator.atPointer(p.pointer, decodeParam(doc, p, [id])).length === 0)) ??
    MISSING_ID
  );
}
