/**
 * Negotiation by language as a document states it (RFC 9110 §12.5.4 and §8.5, RFC 4647): the
 * collections whose reads take `Accept-Language` and answer `Content-Language`, how a range takes a
 * language (`x-language-match` on the parameter), and the replace that writes a record's fields in
 * another language (`Content-Language` on it, `x-language-fields` naming the fields).
 */
import type { CollectionSpec } from './collections.ts';
import { atPointer, isRecord, SpecError, type OpenApiDocument } from './document.ts';
import type { OperationSpec, ParamSpec } from './operations.ts';

/** `filter`: a range takes a tag it is a prefix of (RFC 4647 §3.3.1); `lookup`: a tag it shortens to (§3.4). */
export type LanguageMatch = 'filter' | 'lookup';

export interface LanguageNegotiation {
  collection: CollectionSpec;
  /** The record's read, which takes `Accept-Language` and answers `Content-Language`. */
  read: OperationSpec;
  /** The collection's list, when it negotiates as well. */
  list: OperationSpec | null;
  /** How a range takes a language beyond the tag equal to it; empty when the document does not say. */
  match: LanguageMatch[];
  /** The replace that takes `Content-Language`, when there is one. */
  write: OperationSpec | null;
  /** The record's fields whose values are in one language (`x-language-fields` of the write); empty when unstated. */
  fields: string[];
}

const headerParam = (op: OperationSpec, name: string): ParamSpec | undefined =>
  op.params.find((p) => p.in === 'header' && p.name.toLowerCase() === name);

/** Whether the operation takes `Accept-Language` and a 2xx of it names `Content-Language`. */
export function negotiatesLanguage(op: OperationSpec): boolean {
  return (
    headerParam(op, 'accept-language') !== undefined &&
    Object.values(op.responses).some((r) => /^2/.test(r.status) && r.headers.some((h) => h.name.toLowerCase() === 'content-language'))
  );
}

/** The parameter object a parameter's schema pointer sits in. */
const paramObject = (doc: OpenApiDocument, param: ParamSpec): unknown => atPointer(doc, param.pointer.replace(/\/schema$/, ''));
/** The operation object of an operation, as written: where its `x-` keywords are. */
export const operationObject = (doc: OpenApiDocument, op: OperationSpec): unknown => doc.paths[op.path]?.[op.method.toLowerCase()];

function readMatch(doc: OpenApiDocument, op: OperationSpec): LanguageMatch[] {
  const param = headerParam(op, 'accept-language')!;
  const raw = paramObject(doc, param);
  const stated = isRecord(raw) ? raw['x-language-match'] : undefined;
  if (stated === undefined) return [];
  if (!Array.isArray(stated) || stated.length === 0 || !stated.every((m) => m === 'filter' || m === 'lookup'))
    throw new SpecError(`x-language-match of ${op.method} ${op.path}'s Accept-Language must list filter, lookup or both`);
  return [...new Set(stated as LanguageMatch[])];
}

function readFields(doc: OpenApiDocument, op: OperationSpec): string[] {
  const raw = operationObject(doc, op);
  const stated = isRecord(raw) ? raw['x-language-fields'] : undefined;
  if (stated === undefined) return [];
  if (!Array.isArray(stated) || !stated.every((f) => typeof f === 'string' && f !== ''))
    throw new SpecError(`x-language-fields of ${op.method} ${op.path} must list field names`);
  return [...new Set(stated as string[])];
}

/** Every collection whose record's read negotiates by language, with what the document says of it. */
export function languageNegotiations(doc: OpenApiDocument, collections: readonly CollectionSpec[]): LanguageNegotiation[] {
  return collections
    .filter((c) => negotiatesLanguage(c.read))
    .map((c) => {
      const write = c.replace && headerParam(c.replace, 'content-language') ? c.replace : null;
      return {
        collection: c,
        read: c.read,
        list: negotiatesLanguage(c.list) ? c.list : null,
        match: readMatch(doc, c.read),
        write,
        fields: write ? readFields(doc, write) : [],
      };
    });
}

/**
 * The languages of `available` a range takes, by the scheme `match` states (tags compared without
 * case): the one equal to it; else, with `filter`, those it is a prefix of; else, with `lookup`,
 * the longest it shortens to. `*` takes `fallback`. Empty: the range takes none.
 */
export function languagesTaken(range: string, available: readonly string[], match: readonly LanguageMatch[], fallback: string): string[] {
  if (range === '*') return [fallback];
  const r = range.toLowerCase();
  const equal = (tag: string) => available.filter((a) => a.toLowerCase() === tag);
  const exact = equal(r);
  if (exact.length > 0) return exact;
  if (match.includes('filter')) {
    const prefixed = available.filter((a) => a.toLowerCase().startsWith(`${r}-`));
    if (prefixed.length > 0) return prefixed;
  }
  if (match.includes('lookup')) {
    for (let shorter = r; shorter.includes('-'); ) {
      shorter = shorter.slice(0, shorter.lastIndexOf('-'));
      const found = equal(shorter);
      if (found.length > 0) return found;
    }
  }
  return [];
}
