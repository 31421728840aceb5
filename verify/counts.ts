/**
 * Answers that count (`x-count-of` on a response, openapi-kit/counts.ts): after such an answer, the
 * list it counts is read as the same caller, with the stated query parameters, and must hold as
 * many items as the answer's count.
 */
import { isRecord, type OperationSpec } from '../openapi-kit/index.ts';
import { bodyJson, type Exchange } from './exchange.ts';
import type { Finding } from './judge.ts';
import type { CheckName } from './results.ts';
import type { Session } from './session.ts';

/** What is wrong with the count `exchange` answered, or null (no count stated, none answered, or it holds). */
export async function checkCount(session: Session, op: OperationSpec, exchange: Exchange, check: CheckName): Promise<Finding | null> {
  const status = String(exchange.response?.status ?? '');
  const count = session.spec.counts.find((c) => c.op.id === op.id && c.status === status);
  // Only a caller the list can be read as again: the member, another given identity, or nobody.
  if (!count || exchange.request.wrapped || exchange.request.authorization === 'other') return null;
  const body = bodyJson(exchange.response);
  const answered = isRecord(body) ? body[count.field] : undefined;
  if (typeof answered !== 'number') return null;
  const credentials = exchange.request.credentials ?? 'member';
  if (credentials.startsWith('refused ')) return null;
  const query = Object.entries(count.parameters);
  const listed = await session.target.json(count.of, {}, undefined, { query, credentials });
  session.results.count(listed, check);
  const items = bodyJson(listed.response);
  if (listed.response?.status !== 200 || !Array.isArray(items) || items.length === answered) return null;
  // A list that ignores its filters is that list's fault, judged where it is checked: it counts nothing here.
  if (items.some((item) => isRecord(item) && query.some(([k, v]) => k in item && String(item[k]) !== v))) return null;
  const asked = query.length > 0 ? ` with ${query.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
  return {
    title: `answers ${count.field}: ${answered}, but ${count.of.id}${asked} then lists ${items.length} to the same caller (x-count-of)`,
    violations: [],
  };
}
