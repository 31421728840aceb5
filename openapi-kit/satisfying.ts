/**
 * Generators that give up instead of drawing for ever when nothing they draw will do: the filter
 * that stops after so many misses, and the error it throws.
 */
import type fc from 'fast-check';

import type { JsonSchema } from './document.ts';

/**
 * A generator that cannot produce what a schema asks (a pattern and a length no string meets, a
 * value the validator refuses whatever is drawn) gives up instead of drawing for ever: `what` says
 * which value it was after.
 */
export class GeneratorGaveUp extends Error {
  readonly what: string;

  constructor(what: string, tries: number) {
    super(`no value for ${what} in ${tries} tries`);
    this.what = what;
  }
}

/** Draws in a row that may miss before a `satisfying` filter gives up. */
export const MAX_MISSES = 500;

/**
 * `arb.filter(predicate)` that throws GeneratorGaveUp after MAX_MISSES misses in a row, where
 * fast-check's own filter would loop without end (and block the event loop with it).
 */
export function satisfying<T, U extends T = T>(
  arb: fc.Arbitrary<T>,
  predicate: ((value: T) => value is U) | ((value: T) => boolean),
  what: string,
): fc.Arbitrary<U> {
  let misses = 0;
  return arb.filter((value): value is U => {
    if (predicate(value)) {
      misses = 0;
      return true;
    }
    if (++misses >= MAX_MISSES) {
      misses = 0;
      throw new GeneratorGaveUp(what, MAX_MISSES);
    }
    return false;
  });
}

/** A schema in a few words, for a GeneratorGaveUp. */
export const schemaWords = (schema: JsonSchema): string => {
  const text = JSON.stringify(schema);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};
