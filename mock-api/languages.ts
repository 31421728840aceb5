/**
 * Which language a notification answers in: the caller's `Accept-Language` (RFC 9110 12.5.4) read as
 * language ranges, most preferred first, and the first of them the notification has. A range takes
 * the language equal to it, else one it is a prefix of (`zh` takes `zh-Hans`), else the longest it
 * shortens to (`fr-CA` takes `fr`); `*`, or no range that any language takes, gives English, the
 * language of the record.
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

/**
 * The language of `available` that answers `ranges` first, else English. A range takes the tag
 * equal to it, else one it is a prefix of (RFC 4647 filtering), else the longest tag it shortens to
 * (lookup), as the document's `x-language-match: [filter, lookup]` states.
 */
export function answerLanguage(ranges: readonly string[], available: readonly string[]): string {
  const lower = available.map((tag) => tag.toLowerCase());
  const equal = (range: string) => lower.indexOf(range);
  for (const range of ranges) {
    if (range === '*') return RECORD_LANGUAGE;
    let at = equal(range);
    if (at < 0) at = lower.findIndex((tag) => tag.startsWith(`${range}-`));
    for (let shorter = range; at < 0 && shorter.includes('-'); ) {
      shorter = shorter.slice(0, shorter.lastIndexOf('-'));
      at = equal(shorter);
    }
    if (at >= 0) return available[at]!;
  }
  return RECORD_LANGUAGE;
}
