/**
 * Following the document's links, on any document that declares them: for each operation whose
 * answers carry `links`, a valid request is sent until it gets the linked status; then each link's
 * target is sent with the parameters (and body) its runtime expressions take from that exchange,
 * reads first, then changes, then deletes, and judged as a valid request: a documented answer, never
 * one that says the request was wrong. Where the document declares no links, the collections'
 * model pairs a create with its record's read, replace and delete from the path templates instead
 * (./collection-model.ts).
 *
 * Every link is in the coverage: how often it was followed and what its target answered, or why it
 * was not.
 */
import fc from 'fast-check';
import {
  evaluate,
  GeneratorGaveUp,
  pathSegments,
  UnresolvedExpression,
  type LinkContext,
  type LinkSpec,
  type OperationSpec,
} from '../openapi-kit/index.ts';
import type { GeneratedRequest, PathValue } from './generated-request.ts';
import { SAFE_METHODS, type Session } from './session.ts';
import type { SingleExchanges } from './singles.ts';
import { BudgetSpent, bodyJson, successStatuses, type Credentials, type Exchange, type Outgoing } from './exchange.ts';

/** Valid requests tried per source operation before its links are given up as not reached. */
const SOURCE_TRIES = 5;

/** Reads first, then changes, then deletes: a delete followed first would leave the others nothing. */
const ORDER = (method: string): number => (SAFE_METHODS.includes(method) ? 0 : method === 'DELETE' ? 2 : 1);

/** The request's side of a link context, read back from what was sent (`base`: the URL the operation's path is under). */
function requestSide(op: OperationSpec, exchange: Exchange, base: string): LinkContext['request'] {
  const url = new URL(exchange.request.url);
  const under = new URL(base).pathname.replace(/\/+$/, '');
  const raw = pathSegments(op, url.pathname.slice(under.length)) ?? {};
  const path: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      path[name] = decodeURIComponent(value);
    } catch {
      path[name] = value;
    }
  }
  const sent = exchange.request.body;
  let body: unknown;
  if (sent.kind === 'bytes') {
    try {
      body = JSON.parse(new TextDecoder().decode(sent.bytes));
    } catch {
      body = undefined;
    }
  }
  return { path, query: url.searchParams, headers: new Headers(exchange.request.headers), body };
}

export class LinkFollower {
  private readonly session: Session;
  private readonly singles: SingleExchanges;

  /** Why a source must not be sent (a create of which the caller already has the one), or null. */
  private readonly keptOut: (op: OperationSpec) => string | null;

  constructor(session: Session, singles: SingleExchanges, keptOut: (op: OperationSpec) => string | null = () => null) {
    this.session = session;
    this.singles = singles;
    this.keptOut = keptOut;
  }

  /** Follows every link of the document, grouped by the answer they leave from. */
  async run(): Promise<void> {
    const { spec, results, options } = this.session;
    const bySource = new Map<string, LinkSpec[]>();
    for (const link of spec.links)
      bySource.set(`${link.from} ${link.status}`, [...(bySource.get(`${link.from} ${link.status}`) ?? []), link]);
    for (const links of bySource.values()) {
      const source = spec.byId(links[0]!.from);
      const writes = [source, ...links.map((l) => spec.byId(l.to))].some((o) => !SAFE_METHODS.includes(o.method));
      if (options.readOnly && writes) {
        for (const l of links) results.linkNotFollowed(l.key, '--read-only: the source or the target changes data');
        continue;
      }
      if (!this.session.canSend) {
        for (const l of links) results.linkNotFollowed(l.key, this.session.target.stopReason);
        continue;
      }
      const kept = this.keptOut(source);
      if (kept) {
        for (const l of links) results.linkNotFollowed(l.key, kept);
        continue;
      }
      this.session.activity = `links of ${source.id} ${links[0]!.status}`;
      try {
        // Followed a few times, each from a new answer (fewer than the generated runs: each round creates a record).
        const rounds = Math.max(1, Math.ceil(options.runs / 8));
        for (let round = 0; round < rounds; round++) await this.fromSource(source, links, round);
      } catch (error) {
        if (error instanceof GeneratorGaveUp) {
          for (const l of links) results.linkNotFollowed(l.key, `the generator gave up: ${error.message} (seed ${options.seed})`);
          continue;
        }
        if (!(error instanceof BudgetSpent)) throw error;
        for (const l of links) results.linkNotFollowed(l.key, error.message);
      }
    }
  }

  /** `n` requests the document calls valid (drawn from the valid generator, those its judge refuses left out). */
  private sample(op: OperationSpec, key: string, n: number): GeneratedRequest[] {
    const drawn = fc.sample(this.singles.requests.validRequest(op), { seed: this.session.seedOf(`link:${key}`), numRuns: n * 10 });
    return drawn.filter((r) => this.singles.requests.isValid(op, r)).slice(0, n);
  }

  /** Gets the source's linked answer, then follows each of its links once. */
  private async fromSource(source: OperationSpec, links: LinkSpec[], round: number): Promise<void> {
    const status = links[0]!.status;
    const wanted = (s: number) => (/^\d{3}$/.test(status) ? String(s) === status : status === 'default' || `${String(s)[0]}XX` === status);
    let answered: Exchange | undefined;
    const seen: number[] = [];
    await this.singles.makeRoomFor(source);
    for (const r of this.sample(source, `${source.id} ${status} ${round}`, SOURCE_TRIES)) {
      const { exchange, findings } = await this.session.send(source, await this.singles.outgoing(source, r), 'links', { kind: 'valid' });
      this.singles.track(exchange);
      for (const finding of findings) this.session.results.fail(source, 'links', exchange, finding);
      if (exchange.response && wanted(exchange.response.status)) {
        answered = exchange;
        break;
      }
      seen.push(exchange.response?.status ?? 0);
    }
    if (!answered?.response) {
      const why = `${source.id} never answered ${status} to ${SOURCE_TRIES} valid requests (answered ${[...new Set(seen)].join(', ')})`;
      for (const l of links) this.session.results.linkNotFollowed(l.key, why);
      return;
    }
    const context: LinkContext = {
      url: answered.request.url,
      method: answered.request.method,
      statusCode: answered.response.status,
      request: requestSide(source, answered, source.root ? this.session.target.bases.root : this.session.target.bases.api),
      response: { headers: answered.response.headers, body: bodyJson(answered.response) },
    };
    const ordered = [...links].sort((a, b) => ORDER(this.session.spec.byId(a.to).method) - ORDER(this.session.spec.byId(b.to).method));
    for (const link of ordered) await this.follow(link, context, round);
  }

  /**
   * A change whose link carries header values from the source's answer (a key it gave once, a tag)
   * is first sent by callers who never saw that answer: anonymous where the target allows it, and
   * the other member (--other-header). Without those headers, and with another value of each that
   * its schema takes, the change must be refused (a 4xx), when the target documents a refusal (401
   * or 403): else the value the link carries unlocks nothing.
   */
  private async withoutTheKey(link: LinkSpec, target: OperationSpec, r: GeneratedRequest, linked: Array<[string, string]>): Promise<void> {
    if (!target.statuses.includes('401') && !target.statuses.includes('403')) return;
    const callers: Credentials[] = [];
    if (!target.secured) callers.push('none');
    if (this.session.target.otherHeaders.length > 0) callers.push('other');
    if (callers.length === 0) return;
    const variants: Array<{ what: string; headers: Array<[string, string]> }> = [
      { what: `without ${linked.map(([n]) => n).join(', ')}`, headers: [] },
    ];
    for (const [name, value] of linked) {
      const param = target.params.find((p) => p.in === 'header' && p.name === name);
      if (!param) continue;
      const other = this.singles.headerValue(target, param, true, { unlike: value, key: `link:${link.key}:other ${name}` });
      if (other !== undefined)
        variants.push({ what: `with another ${name}`, headers: linked.map(([n, v]): [string, string] => [n, n === name ? other : v]) });
    }
    for (const as of callers) for (const variant of variants) await this.refusedWithout(link, target, r, linked, as, variant);
  }

  /** One probe of withoutTheKey: the change sent by `as`, with the linked headers as `variant` has them. */
  private async refusedWithout(
    link: LinkSpec,
    target: OperationSpec,
    r: GeneratedRequest,
    linked: Array<[string, string]>,
    as: Credentials,
    variant: { what: string; headers: Array<[string, string]> },
  ): Promise<void> {
    const who = as === 'none' ? 'without credentials' : 'as the other member';
    const out: Outgoing = { ...(await this.singles.outgoing(target, r)), credentials: as };
    for (const [name] of linked) out.headers?.delete(name);
    for (const [name, value] of variant.headers) out.headers?.set(name, value);
    const { exchange, findings } = await this.session.send(target, out, 'links', { kind: 'unspecified' });
    this.singles.track(exchange);
    const status = exchange.response?.status;
    if (status !== undefined && status < 400)
      findings.push({
        title: `the link ${link.name} (${target.method} ${target.path}, from ${link.from}'s answer) was let through ${who} and ${variant.what} (${status}): the value the link carries from that answer unlocks nothing`,
        violations: [],
      });
    for (const finding of findings) this.session.results.fail(target, 'links', exchange, finding);
  }

  /** Sends a link's target with the values the source's exchange gives, and judges its answer. */
  private async follow(link: LinkSpec, context: LinkContext, round: number): Promise<void> {
    const target = this.session.spec.byId(link.to);
    const path: Record<string, PathValue> = {};
    const query: Array<[string, string]> = [];
    const headers: Array<[string, string]> = [];
    let body: unknown;
    try {
      for (const [raw, expression] of Object.entries(link.parameters)) {
        const [where, name] = raw.includes('.') ? (raw.split('.', 2) as [string, string]) : [undefined, raw];
        const param = target.params.find((p) => p.name === name && (where === undefined || p.in === where));
        if (!param) throw new UnresolvedExpression(`${target.id} has no parameter '${raw}'`);
        const value = evaluate(expression, context);
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        if (param.in === 'path') path[param.name] = { kind: 'literal', value: text, encode: true };
        else if (param.in === 'query') query.push([param.name, text]);
        else if (param.in === 'header') headers.push([param.name, text]);
      }
      if (link.requestBody !== undefined) body = evaluate(link.requestBody, context);
    } catch (error) {
      if (!(error instanceof UnresolvedExpression)) throw error;
      this.session.results.linkNotFollowed(link.key, error.message);
      return;
    }
    const missing = target.params.filter((p) => p.in === 'path' && p.required && !(p.name in path));
    if (missing.length > 0) {
      this.session.results.linkNotFollowed(
        link.key,
        `the link gives no value for ${missing.map((p) => `path parameter '${p.name}'`).join(', ')}`,
      );
      return;
    }
    // The rest of the request (a body the link does not give, optional parameters) is generated valid.
    const [generated] = this.sample(target, `${link.key} ${round}`, 1);
    if (!generated) return;
    const r: GeneratedRequest = {
      ...generated,
      path: { ...generated.path, ...path },
      query: { kind: 'params', entries: query.length > 0 ? query : generated.query.kind === 'params' ? generated.query.entries : [] },
      body:
        body === undefined
          ? generated.body
          : {
              kind: 'json',
              contentType: Object.keys(target.body?.content ?? {})[0] ?? 'application/json',
              value: body,
              note: 'the link body',
            },
    };
    if (headers.length > 0 && !SAFE_METHODS.includes(target.method)) await this.withoutTheKey(link, target, r, headers);
    const out: Outgoing = await this.singles.outgoing(target, r);
    for (const [name, value] of headers) out.headers?.set(name, value);
    // An open change whose link carries a value of the source's answer: that value alone lets it
    // through, whoever sends it (the device that made the record, signed in or not).
    const unlocked = headers.length > 0 && !SAFE_METHODS.includes(target.method) && !target.secured;
    if (unlocked) out.credentials = 'none';
    const { exchange, findings } = await this.session.send(
      target,
      out,
      'links',
      unlocked
        ? {
            kind: 'exact',
            statuses: successStatuses(target),
            why: `following the link ${link.name} without credentials, with only the ${headers.map(([n]) => n).join(', ')} it carries from ${link.from}'s answer`,
          }
        : { kind: 'valid' },
    );
    this.singles.track(exchange);
    for (const finding of findings)
      this.session.results.fail(target, 'links', exchange, {
        ...finding,
        title: `following the link ${link.name} from ${link.from}: ${finding.title}`,
      });
    this.session.results.linkFollowed(link.key, exchange.response?.status, findings.length > 0);
  }
}
