/**
 * Which language a notification answers in: the caller's `Accept-Language` (RFC 9110 12.5.4) read as
 * language ranges, most preferred first, and the first of them the notification has. A range takes
 * a language it is a prefix of (`zh` takes `zh-Hans`) or whose tag is a prefix of it (`fr-CA` takes
 * `fr`); `*`, or no range that any language takes, gives English, the language of the record.
 */

/** The language every notification is written in: its record's. */
export const RECORD_LANGUAGE = 'en';

/**
 * The ranges of an `Accept-Language` value, lower-cased, by quality (the order given among equals),
 * without those of quality 0 ("not this one"). The value has been checked against its pattern.
 */
export function languageRanges(header: string | null): string[] {
  if (header === null) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.split(';').map((piece) => piece.trim());
      const weight = params.find((param) => /^q=/i.test(param));
      return { range: range.toLowerCase(), q: weight === undefined ? 1 : Number(weight.slice(2)), index };
    })
    .filter((entry) => entry.range !== '' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.range);
}

/** The language of `available` that answers `ranges` first, else English. */
export function answerLanguage(ranges: readonly string[], available: readonly string[]): string {
  for (const range of ranges) {
    if (range === '*') return RECORD_LANGUAGE;
    const found = available.find((tag) => {
      const lower = tag.toLowerCase();
      return lower === range || lower.startsWith(`${range}-`) || range.startsWith(`${lower}-`);
    });
    if (found !== undefined) return found;
  }
  return RECORD_LANGUAGE;
}
