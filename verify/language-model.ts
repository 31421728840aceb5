/**
 * Negotiation by language, walked on a record the run creates, wherever a document's reads take
 * `Accept-Language` and answer `Content-Language` (openapi-kit/languages.ts). HTTP gives the rules
 * any server keeps: `Content-Language` names the language of the answer, and the same language asked
 * is the same answer (RFC 9110 §8.5, §12.5.4); tags compare without case (RFC 5646 §2.1.1); ranges go
 * by weight, then in their order, and a weight of 0 means "not this one" (RFC 9110 §12.4.2). The
 * document states the rest: how a range takes a language (`x-language-match`), and the replace that
 * writes fields in another language (`Content-Language` on it, `x-language-fields`).
 *
 * The walk: read the record as it is (its own language); write it in other languages; read each
 * back as written and in other case; read ranges the scheme resolves (a prefix, a longer tag, `*`,
 * a language never written); then generated values of several weighted ranges, each answer held to
 * what the scheme picks from the languages written. The list must answer the record as its read
 * does and name the languages it answers in. Last, the default language: a replace that keeps the
 * language fields keeps the other languages, one that changes them drops them, and a record deleted
 * and made again under its id has none of them.
 */
import fc from 'fast-check';
import { isRecord, languagesTaken, type LanguageNegotiation, type OperationSpec, type SchemaArbitraries } from '../openapi-kit/index.ts';
import { bodyJson, type Exchange } from './exchange.ts';
import { CollectionFixtures } from './fixtures.ts';
import type { Session } from './session.ts';
import { canonical } from './stateful.ts';

type Row = Record<string, unknown>;

/** A walk stops at the first answer that is not what it asked for: what follows would judge nothing. */
class WalkStopped extends Error {}

/**
 * Tags to write the record in, the first two the write's header takes: one with a region, one with
 * a script (a prefix takes each by filtering, a longer tag by lookup); rarer ones first, so that a
 * list holds records answered in different languages.
 */
const WRITE_TAGS = ['pt-BR', 'zh-Hans', 'fr', 'de', 'es-419'];
/** Tags no record is written in: each answers the record's own language. */
const UNWRITTEN = ['tlh', 'x-none'];
/** How many records of the list are read one by one to learn the languages it answers in. */
const LIST_READS = 25;

interface Answer {
  language: string | null;
  body: Row;
  exchange: Exchange;
}

interface Range {
  tag: string;
  /** The weight as written (`q=0.5`), or none. */
  weight: string | null;
}

const sameTag = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();
const weightOf = (r: Range) => (r.weight === null ? 1 : Number(r.weight.slice(2)));
/** The Accept-Language value of `ranges`, spaced as `spacing` says (RFC 9110 allows optional whitespace around `,` and `;`). */
const headerOf = (ranges: readonly Range[], spacing: number) =>
  ranges.map((r) => (r.weight === null ? r.tag : `${r.tag}${spacing % 2 ? ' ; ' : ';'}${r.weight}`)).join(spacing > 1 ? ' , ' : ',');

export class LanguageModel {
  private readonly session: Session;
  private readonly n: LanguageNegotiation;
  private readonly arbs: SchemaArbitraries;

  constructor(session: Session, negotiation: LanguageNegotiation, arbs: SchemaArbitraries) {
    this.session = session;
    this.n = negotiation;
    this.arbs = arbs;
  }

  get name(): string {
    return `the languages of ${this.n.collection.itemPath}`;
  }

  get operations(): OperationSpec[] {
    return [this.n.read, ...(this.n.list ? [this.n.list] : []), ...(this.n.write ? [this.n.write] : [])];
  }

  async run(): Promise<void> {
    const fixtures = new CollectionFixtures(this.session, this.n.collection, this.arbs);
    try {
      await fixtures.setup();
      const id = await fixtures.ensure();
      if (id === null) {
        for (const op of this.operations)
          this.session.results.unexercised(
            op,
            'stateful',
            `no record of ${this.n.collection.name} could be made to read in other languages`,
          );
        return;
      }
      try {
        await this.walk(fixtures, id);
      } catch (error) {
        if (!(error instanceof WalkStopped)) throw error;
      }
    } finally {
      await fixtures.teardown();
    }
  }

  /** Whether a read of the record failed: the list's languages are then not judged by the reads. */
  private readFailed = false;

  private fail(op: OperationSpec, exchange: Exchange, title: string): void {
    if (op === this.n.read) this.readFailed = true;
    this.session.results.fail(op, 'stateful', exchange, { title: `languages: ${title}`, violations: [] });
  }

  /** Sends `op` expecting one of its documented 2xx; anything else is failed and stops the walk. */
  private async send(
    op: OperationSpec,
    params: Record<string, string>,
    why: string,
    value?: unknown,
    headers: Array<[string, string]> = [],
  ) {
    const { exchange, findings } = await this.session.expectSuccess(op, params, value, why, { headers });
    for (const finding of findings) this.session.results.fail(op, 'stateful', exchange, finding);
    if (findings.length > 0) throw new WalkStopped();
    return exchange;
  }

  /** The record read with `header` as its Accept-Language (none: null). */
  private async read(id: string, header: string | null, why: string): Promise<Answer> {
    const params = { [this.n.collection.idParam]: id };
    const exchange = await this.send(this.n.read, params, why, undefined, header === null ? [] : [['Accept-Language', header]]);
    const body = bodyJson(exchange.response);
    if (!isRecord(body)) throw new WalkStopped();
    return { language: exchange.response!.headers.get('content-language'), body, exchange };
  }

  /** The body's fields in one language (all of them when the document names none), as canonical JSON. */
  private texts(body: Row): string {
    const fields = this.n.fields.length > 0 ? this.n.fields : Object.keys(body);
    return canonical(Object.fromEntries(fields.map((f) => [f, body[f]])));
  }

  /** The body's other fields, as canonical JSON (none when the document names no language fields). */
  private rest(body: Row): string {
    if (this.n.fields.length === 0) return '{}';
    return canonical(Object.fromEntries(Object.entries(body).filter(([f]) => !this.n.fields.includes(f))));
  }

  private async walk(fixtures: CollectionFixtures, id: string): Promise<void> {
    const { read: readOp, write } = this.n;
    this.session.activity = `${this.name}: the record's own language`;
    const own = await this.read(id, null, 'reading the record without Accept-Language');
    if (own.language === null || own.language.includes(',')) {
      this.fail(readOp, own.exchange, 'the read answers no single Content-Language for one record');
      return;
    }
    const home = own.language;
    /** Each language's answer as the record's read must give it: the written texts, by tag. */
    const written = new Map<string, Answer>([[home, own]]);

    if (write) {
      const header = write.params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'content-language')!;
      const takes = (tag: string) => this.session.spec.validator.atPointer(header.pointer, tag).length === 0;
      const tags = WRITE_TAGS.filter((t) => takes(t) && languagesTaken(t, [home], ['filter', 'lookup'], home).length === 0).slice(0, 2);
      for (const [i, tag] of tags.entries()) {
        this.session.activity = `${this.name}: writing it in ${tag}`;
        const body = fixtures.sample(`language ${i}`);
        const answer = await this.send(write, { [this.n.collection.idParam]: id }, `writing the record in ${tag}`, body, [
          ['Content-Language', tag],
        ]);
        const answered = answer.response!.headers.get('content-language');
        if (answered !== null && !sameTag(answered, tag))
          this.fail(write, answer, `a write in ${tag} answers Content-Language: ${answered}`);
        const back = bodyJson(answer.response);
        if (isRecord(back)) written.set(tag, { language: tag, body: back, exchange: answer });
      }
      // Tags compare without case: the first written again in upper case is the same language, written anew.
      const first = tags[0];
      if (first !== undefined) {
        const again = fixtures.sample('language case');
        const answer = await this.send(write, { [this.n.collection.idParam]: id }, `writing the record in ${first.toUpperCase()}`, again, [
          ['Content-Language', first.toUpperCase()],
        ]);
        const back = bodyJson(answer.response);
        if (isRecord(back)) written.set(first, { language: first, body: back, exchange: answer });
      }
      // The written answers' other fields are the last write's; the record's own texts stay.
      const now = await this.read(id, null, 'reading the record in its own language after the writes');
      if (!sameTag(now.language, home) || this.texts(now.body) !== this.texts(own.body))
        this.fail(readOp, now.exchange, `writing other languages changed the record's own (${home}) texts`);
      written.set(home, now);
    }
    const available = [...written.keys()];
    const latest = written.get(home)!;

    /** Reads with `header` and holds the answer to one of the languages `expected` lists. */
    const expect = async (header: string, expected: readonly string[], why: string) => {
      const answer = await this.read(id, header, why);
      const language = expected.find((tag) => sameTag(answer.language, tag));
      if (language === undefined) {
        this.fail(
          readOp,
          answer.exchange,
          `Accept-Language: ${header} answers Content-Language: ${answer.language ?? '(none)'}, not ${expected.join(' or ')}`,
        );
        return;
      }
      const want = written.get(language)!;
      if (this.texts(answer.body) !== this.texts(want.body))
        this.fail(readOp, answer.exchange, `Accept-Language: ${header} answers in ${language} other texts than the record has in it`);
      else if (this.rest(answer.body) !== this.rest(latest.body))
        this.fail(
          readOp,
          answer.exchange,
          `Accept-Language: ${header} answers the record's other fields otherwise than its own language does`,
        );
    };

    // Each language as written, and in other case; languages never written; what the scheme takes.
    this.session.activity = `${this.name}: single ranges`;
    for (const tag of available) {
      await expect(tag, [tag], `reading the record in ${tag}`);
      await expect(tag.toUpperCase(), [tag], 'a language tag compares without case');
      await expect(tag.toLowerCase(), [tag], 'a language tag compares without case');
    }
    for (const tag of UNWRITTEN) await expect(tag, [home], `reading the record in ${tag}, a language it was not written in`);
    for (const range of this.schemeRanges(available))
      await expect(
        range,
        languagesTaken(range, available, this.n.match, home),
        `the range ${range} (x-language-match: ${this.n.match.join(', ')})`,
      );

    // Several weighted ranges at once.
    this.session.activity = `${this.name}: weighted ranges`;
    const pool = [...available, ...available.map((t) => t.toUpperCase()), ...UNWRITTEN, ...this.schemeRanges(available)];
    const weights = [null, 'q=1', 'q=0.9', 'q=0.5', 'q=0.5', 'Q=0.5', 'q=0.25', 'q=0.001', 'q=0', 'q=0.000', 'q=1.0'];
    const value = fc.record({
      ranges: fc.array(fc.record({ tag: fc.constantFrom(...pool), weight: fc.constantFrom(...weights) }), { minLength: 2, maxLength: 4 }),
      spacing: fc.integer({ min: 0, max: 3 }),
    });
    const runs = Math.max(12, Math.min(this.session.options.runs, 25));
    for (const { ranges, spacing } of fc.sample(value, {
      seed: this.session.seedOf(`languages:${this.n.collection.name}`),
      numRuns: runs,
    })) {
      const ordered = ranges.map((r, i) => ({ r, i })).filter(({ r }) => weightOf(r) > 0);
      ordered.sort((a, b) => weightOf(b.r) - weightOf(a.r) || a.i - b.i);
      const first = ordered.map(({ r }) => languagesTaken(r.tag, available, this.n.match, home)).find((taken) => taken.length > 0);
      await expect(headerOf(ranges, spacing), first ?? [home], 'ranges go by weight, then in their order; weight 0 takes nothing');
    }

    // And the cases a random draw may miss: weight 0 takes nothing, equal weights go in their order, weight beats order.
    const [a, b] = available.filter((t) => t !== home);
    const fixed: Array<[string, readonly string[]]> = [[`${home}, ${a ?? UNWRITTEN[0]}`, [home]]];
    if (this.n.match.length > 0 && a) fixed.push([`*, ${a}`, [home]]);
    if (a && b)
      fixed.push(
        [`${a};q=0, ${UNWRITTEN[0]}`, [home]],
        [`${UNWRITTEN[0]}, ${a};q=0.5, ${b};q=0.5`, [a]],
        [`${b};q=0.5, ${a};q=0.5`, [b]],
        [`${a};q=0.3, ${b}`, [b]],
        [`${a} ;q=0.3 , ${b} ; q=0.7`, [b]],
      );
    for (const [header, expected] of fixed)
      await expect(header, expected, 'ranges go by weight, then in their order; weight 0 takes nothing');

    if (this.n.list) await this.listed(id, available, written);
    if (write && this.n.fields.length > 0) await this.defaultLanguageWrites(fixtures, id, write, home, available);
    await this.madeAgain(fixtures, id, home, available);
  }

  /** Ranges whose answer only the stated scheme decides: a prefix (filter), a longer tag (lookup), `*`. */
  private schemeRanges(available: readonly string[]): string[] {
    if (this.n.match.length === 0) return [];
    const ranges = new Set<string>(['*']);
    for (const tag of available) {
      if (tag.includes('-')) ranges.add(tag.slice(0, tag.indexOf('-')));
      ranges.add(`${tag}-zz`);
    }
    return [...ranges];
  }

  /** The list, in each language, answers the record as its read does and names every language it answers in. */
  private async listed(id: string, available: readonly string[], written: Map<string, Answer>): Promise<void> {
    const list = this.n.list!;
    const { idField, idParam } = this.n.collection;
    for (const tag of available) {
      this.session.activity = `${this.name}: the list in ${tag}`;
      const exchange = await this.send(list, {}, `listing the collection in ${tag}`, undefined, [['Accept-Language', tag]]);
      const rows = bodyJson(exchange.response);
      if (!Array.isArray(rows)) return;
      const row = rows.filter(isRecord).find((r) => String(r[idField]) === id);
      // A list row may be a summary of the record: only the fields stated to be in one language are compared.
      if (row && this.n.fields.length > 0 && this.texts(row) !== this.texts(written.get(tag)!.body))
        this.fail(list, exchange, `the list in ${tag} answers the record with other texts than its read in ${tag}`);
      const named = (exchange.response!.headers.get('content-language') ?? '')
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter((t) => t !== '');
      // A read already found wrong would blame the list for it.
      if (this.readFailed) continue;
      const answered = new Set<string>();
      for (const other of rows.filter(isRecord).slice(0, LIST_READS)) {
        const otherId = other[idField];
        if (typeof otherId !== 'string' && typeof otherId !== 'number') continue;
        const params = { [idParam]: String(otherId) };
        const one = await this.session.target.json(this.n.read, params, undefined, { headers: [['Accept-Language', tag]] });
        this.session.results.count(one, 'stateful');
        const language = one.response?.status === 200 ? one.response.headers.get('content-language') : null;
        if (language) answered.add(language.toLowerCase());
      }
      const all = rows.length <= LIST_READS;
      const missing = [...answered].filter((t) => !named.includes(t));
      const extra = all ? named.filter((t) => !answered.has(t)) : [];
      if (missing.length > 0 || extra.length > 0)
        this.fail(
          list,
          exchange,
          `the list in ${tag} names Content-Language: ${named.join(', ') || '(none)'}, but its records read in ${tag} answer ${[...answered].join(', ')}`,
        );
    }
  }

  /**
   * x-language-fields: a replace in the record's own language that keeps those fields keeps the
   * other languages; one that changes them drops them.
   */
  private async defaultLanguageWrites(
    fixtures: CollectionFixtures,
    id: string,
    write: OperationSpec,
    home: string,
    available: readonly string[],
  ) {
    const others = available.filter((t) => t !== home);
    // Judged by reads already found wrong, the write would take their blame.
    if (others.length === 0 || this.readFailed) return;
    this.session.activity = `${this.name}: replacing it in ${home}`;
    const params = { [this.n.collection.idParam]: id };
    const own = await this.read(id, null, 'reading the record in its own language');
    const keep = { ...fixtures.sample('language keep'), ...Object.fromEntries(this.n.fields.map((f) => [f, own.body[f]])) };
    await this.send(write, params, `replacing the record in ${home}, its language fields as they were`, keep);
    for (const tag of others) {
      const answer = await this.read(id, tag, `reading it in ${tag} after a replace that kept its ${home} texts`);
      if (!sameTag(answer.language, tag))
        this.fail(
          write,
          answer.exchange,
          `a replace in ${home} that kept the language fields (${this.n.fields.join(', ')}) dropped the record's ${tag}`,
        );
    }
    // Each language field changed alone drops the other languages; the record's own then reads as
    // replaced. The first such replace names the record's language, in other case: a write in it is
    // a replace like one that names none.
    let base: Row = keep;
    for (const [i, field] of this.n.fields.entries()) {
      const changed = { ...base, [field]: fixtures.sample(`language change ${field}`)[field] };
      if (canonical(changed[field]) === canonical(base[field])) continue;
      base = changed;
      for (const tag of others)
        await this.send(write, params, `writing the record in ${tag} again`, fixtures.sample(`language again ${field} ${tag}`), [
          ['Content-Language', tag],
        ]);
      const named: Array<[string, string]> = i === 0 ? [['Content-Language', home.toUpperCase()]] : [];
      await this.send(write, params, `replacing the record in ${home} with another ${field}`, changed, named);
      const now = await this.read(id, null, `reading it in ${home} after a replace of its ${field}`);
      if (this.texts(now.body) !== this.texts(changed))
        this.fail(
          write,
          now.exchange,
          `after a replace in ${home}, the record read in ${home} answers other texts than it was replaced with`,
        );
      for (const tag of others) {
        const answer = await this.read(id, tag, `reading it in ${tag} after a replace that changed its ${home} ${field}`);
        if (!sameTag(answer.language, home))
          this.fail(write, answer.exchange, `a replace in ${home} that changed ${field} (x-language-fields) kept the record's ${tag}`);
      }
    }
  }

  /** A record deleted and made again under its id is a new record: it has only its own language. */
  private async madeAgain(fixtures: CollectionFixtures, id: string, home: string, available: readonly string[]) {
    const remove = this.n.collection.remove;
    const others = available.filter((t) => t !== home);
    if (!remove || others.length === 0 || !this.n.write || this.n.fields.length === 0 || this.readFailed) return;
    // Written again first: the default-language replaces above may have dropped them.
    this.session.activity = `${this.name}: deleting it and making it again`;
    const params = { [this.n.collection.idParam]: id };
    for (const tag of others)
      await this.send(this.n.write, params, `writing the record in ${tag} again`, fixtures.sample(`language again ${tag}`), [
        ['Content-Language', tag],
      ]);
    const removed = await this.session.target.json(remove, params);
    this.session.results.count(removed, 'stateful');
    if (!this.n.collection.removedStatuses.includes(removed.response?.status ?? 0)) return;
    fixtures.untrack(removed, id);
    if ((await fixtures.ensure()) !== id) return;
    for (const tag of others) {
      const answer = await this.read(id, tag, `reading in ${tag} a record made again under a deleted one's id`);
      if (!sameTag(answer.language, home))
        this.fail(
          remove,
          answer.exchange,
          `a record made again under a deleted record's id answers in ${tag}, a language only the deleted one was written in`,
        );
    }
  }
}
