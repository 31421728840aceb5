/**
 * Single exchanges, per operation: the requests of ./single-requests.ts sent and judged (what the
 * document says of each request comes from the request judge of the contract tests; the answer is
 * judged by ./judge.ts), the shrunk counterexample reported; and for a secured operation a valid
 * request without credentials (401), for one that needs a role a valid request with the member's
 * credentials when an admin's were given (403), each optional header with a value its schema
 * refuses, and the access checks of ./access.ts.
 */
import fc from 'fast-check';
import {
  atPointer as nodeAt,
  GeneratorGaveUp,
  isJsonMedia,
  isRecord,
  satisfying,
  type OperationSpec,
  type ParamSpec,
} from '../openapi-kit/index.ts';
import type { GeneratedRequest } from './generated-request.ts';
import type { RequestGenerator } from './request-generator.ts';
import { RequestJudge } from './request-judge.ts';
import { buildAt } from './request-wire.ts';
import { AccessChecks } from './access.ts';
import { checkCount } from './counts.ts';
import type { CollectionFixtures, OwnRecordFixture, OwnRecordOps } from './fixtures.ts';
import type { Expectation, Finding } from './judge.ts';
import type { CheckName } from './results.ts';
import { Counterexample, exercise, SAFE_METHODS, type Session } from './session.ts';
import { BudgetSpent, type CredentialWrap, type Credentials, type Exchange, type Outgoing } from './exchange.ts';
import { missingId, MISSING_ID } from './missing-id.ts';
import { withParents } from './nested-fixtures.ts';
import { SingleRequests } from './single-requests.ts';

/** How often an oversized upload is sent when the connection is reset before the answer. */
const UPLOAD_ATTEMPTS = 5;

const isResetWhileSending = (exchange: Exchange) =>
  exchange.response === null && /EPIPE|ECONNRESET|UND_ERR_SOCKET|other side closed/i.test(exchange.error ?? '');

interface Context {
  requestJudge: RequestJudge;
  collections: Map<string, CollectionFixtures>;
  ownRecord: OwnRecordFixture | null;
}

export class SingleExchanges {
  /** The requests it sends. */
  readonly requests: SingleRequests;
  private readonly ctx: Context;
  private readonly session: Session;
  private readonly access: AccessChecks;

  constructor(
    session: Session,
    generator: RequestGenerator,
    collections: Map<string, CollectionFixtures>,
    ownRecord: OwnRecordFixture | null,
    ownRecordOps: OwnRecordOps | null,
  ) {
    this.session = session;
    const requestJudge = new RequestJudge(session.spec.doc);
    this.ctx = { requestJudge, collections, ownRecord };
    this.requests = new SingleRequests(session, { generator, requestJudge, collections, ownRecordOps });
    this.access = new AccessChecks(session, this);
  }

  /**
   * What a generated `existing` path id stands for, right before a request: the run's own record
   * (created again if a request deleted it), or an id no record has when the run has none it may
   * change. Reads may use any record.
   */
  private async existing(op: OperationSpec): Promise<string> {
    const safe = SAFE_METHODS.includes(op.method);
    const fixtures = this.requests.itemCollection(op);
    if (fixtures) {
      const id = this.session.options.readOnly ? null : await fixtures.ensure();
      if (id !== null) return id;
      if (safe) {
        const rows = await fixtures.list();
        const first = rows?.find((r) => typeof r.id === 'string');
        if (first) return String(first.id);
      }
      return missingId(this.session.spec, op);
    }
    const own = this.ctx.ownRecord;
    if (own && this.requests.isOwnRecordItem(op)) {
      if (own.original) return safe && own.id ? own.id : missingId(this.session.spec, op);
      if (this.session.options.readOnly) return missingId(this.session.spec, op);
      return (await own.ensure()) ?? missingId(this.session.spec, op);
    }
    return missingId(this.session.spec, op);
  }

  /** Sends one generated request and judges it; throws a Counterexample when something is wrong. */
  async send(op: OperationSpec, r: GeneratedRequest, check: CheckName): Promise<void> {
    r = await withParents(this.ctx.collections.values(), op, r);
    const existing = Object.values(r.path).some((v) => v.kind === 'existing') ? await this.existing(op) : MISSING_ID;
    const built = buildAt(op, { ...r, chunked: false }, this.session.target.bases, existing);
    const reached = this.session.spec.match(r.method, built.contractPath);
    const verdict =
      reached?.id === op.id
        ? this.ctx.requestJudge.verdict(op, r, existing)
        : { valid: null, why: [`the URL reaches ${reached?.id ?? 'no operation'}`] };
    let expectation: Expectation;
    if (verdict.valid === true) {
      const not = this.requests.ruledOutOf(r);
      expectation = not ? { kind: 'valid', not } : { kind: 'valid' };
    } else if (verdict.valid === false)
      expectation = verdict.statuses
        ? { kind: 'invalid', why: verdict.why, statuses: verdict.statuses }
        : { kind: 'invalid', why: verdict.why };
    else expectation = { kind: 'unspecified' };
    const init = built.init;
    const out = {
      method: r.method,
      url: built.url,
      headers: new Headers(init.headers),
      sent: r.chunked && built.sent.kind !== 'none' ? { ...built.sent, chunked: true } : built.sent,
      ...(init.body === undefined || init.body === null ? {} : { body: init.body }),
      ...(r.chunked ? { stream: true } : {}),
    };
    if (reached && reached.id !== op.id) {
      // The URL names another operation (an id like '..'): its answer is that operation's.
      const { exchange, findings } = await this.session.send(reached, out, check, { kind: 'unspecified' });
      this.track(exchange);
      if (findings.length > 0) throw new Counterexample(exchange, findings);
      return;
    }
    if (!reached) {
      const exchange = await this.session.target.send(op, out);
      this.session.results.count(exchange, check);
      const findings: Finding[] = [];
      if (!exchange.response) findings.push({ title: `no answer (${exchange.error ?? 'unknown error'})`, violations: [] });
      else if (exchange.response.status >= 500)
        findings.push({
          title: `${exchange.response.status} for a URL that reaches no operation (${verdict.why.join('; ')})`,
          violations: [],
        });
      if (findings.length > 0) throw new Counterexample(exchange, findings);
      return;
    }
    let judged = await this.session.send(op, out, check, expectation);
    // A server that refuses an oversized body may close the connection right after its 413, while
    // the body is still on its way: the client then sees a reset instead of the answer (RFC 9112
    // §9.6). Such a request is sent again, a few times, before it counts as unanswered.
    for (let attempt = 1; check === 'limits' && attempt < UPLOAD_ATTEMPTS && isResetWhileSending(judged.exchange); attempt++) {
      judged = await this.session.send(op, out, check, expectation);
    }
    const { exchange, findings } = judged;
    this.track(exchange);
    if (findings.length === 0) {
      const counted = await checkCount(this.session, op, exchange, check);
      if (counted) findings.push(counted);
    }
    if (findings.length > 0) {
      if (isResetWhileSending(exchange))
        findings[0] = {
          title: `${findings[0]!.title}, ${UPLOAD_ATTEMPTS} times: the server closed the connection before its answer could be read (RFC 9112 §9.6: a server that refuses a body should read on before closing)`,
          violations: [],
        };
      throw new Counterexample(exchange, findings);
    }
  }

  /** Before a create: room for one more record in its collection when it is at its cap (taken out records go back at teardown). */
  /** The fixtures of the collection `op` creates in, if it is a collection's create. */
  fixturesOf(op: OperationSpec): CollectionFixtures | undefined {
    return [...this.ctx.collections.values()].find((c) => c.collection.create.id === op.id);
  }

  async makeRoomFor(op: OperationSpec): Promise<void> {
    const fixtures = [...this.ctx.collections.values()].find((c) => c.collection.create.id === op.id);
    if (fixtures) await fixtures.makeRoom(1);
  }

  /** A generated request as it goes out: its `existing` ids resolved (the run's own record), its body serialised. */
  async outgoing(op: OperationSpec, r: GeneratedRequest): Promise<Outgoing> {
    r = await withParents(this.ctx.collections.values(), op, r);
    const existing = Object.values(r.path).some((v) => v.kind === 'existing') ? await this.existing(op) : MISSING_ID;
    const built = buildAt(op, { ...r, chunked: false }, this.session.target.bases, existing);
    return {
      method: r.method,
      url: built.url,
      headers: new Headers(built.init.headers),
      sent: built.sent,
      ...(built.init.body === undefined || built.init.body === null ? {} : { body: built.init.body }),
    };
  }

  /** Notes what a generated request created, to delete it at the end. */
  track(exchange: Exchange): void {
    for (const fixtures of this.ctx.collections.values()) fixtures.track(exchange);
    this.ctx.ownRecord?.track(exchange);
  }

  /** Runs one property: every example, then `runs` requests from `arb`; the shrunk counterexample reported. */
  async property(
    op: OperationSpec,
    check: CheckName,
    arb: fc.Arbitrary<GeneratedRequest>,
    runs: number,
    examples: GeneratedRequest[] = [],
  ): Promise<void> {
    this.session.activity = `${op.id} ${check}`;
    // A request that got no answer has cost a whole --request-timeout: its counterexample is not
    // shrunk, as each smaller one would wait as long again and tell no more.
    let unanswered = false;
    const details = await fc.check(
      fc.asyncProperty(arb, async (r) => {
        if (unanswered) return;
        try {
          await this.send(op, r, check);
        } catch (error) {
          if (error instanceof BudgetSpent) return;
          if (error instanceof Counterexample && error.exchange.response === null) unanswered = true;
          throw error;
        }
      }),
      {
        seed: this.session.seedOf(`${op.id}:${check}`),
        // The examples count among fast-check's runs: each is sent, then `runs` generated ones.
        numRuns: runs + examples.length,
        examples: examples.map((e) => [e]),
        // An oversized body is not shrunk: each step would upload another one, and the smallest
        // body over the limit tells no more than the first.
        endOnFailure: check === 'limits',
        // No time limit of fast-check's own: a run cut by the clock would depend on the machine's
        // load. --operation-timeout bounds it, and says so in the report.
      },
    );
    if (!details.failed) return;
    const error = details.errorInstance;
    if (!(error instanceof Counterexample)) throw error instanceof Error ? error : new Error(String(error));
    const replay = `fast-check seed ${details.seed}, path ${details.counterexamplePath}`;
    for (const finding of error.findings)
      this.session.results.fail(error.blame ?? error.exchange.op ?? op, check, error.exchange, finding, { replay });
  }

  /**
   * A valid request sent as someone who may not call the operation must be refused whatever else it
   * is, counted under "invalid input", sent on every run; an answer that serves it is a hole,
   * reported on the operation:
   * - a secured operation, without any credentials (none of the --header headers): 401;
   * - an operation whose security names a role, as the --header member when an admin's credentials
   *   were given (--admin-header): 403.
   */
  private async refused(op: OperationSpec, as: 'none' | 'member'): Promise<void> {
    const expectation: Expectation =
      as === 'none'
        ? { kind: 'exact', statuses: [401], why: `${op.method} ${op.path} without credentials (the operation is secured)` }
        : {
            kind: 'exact',
            statuses: [403],
            why: `${op.method} ${op.path} as the --header member (the operation needs the role ${op.roles.join(', ')})`,
          };
    await this.sendValidAs(op, as === 'none' ? 'anonymous' : 'member', { credentials: as }, 'invalid input', expectation);
  }

  /**
   * One valid request of `op` (drawn with its own seed, named by `key`) sent with the credentials
   * and extra headers given, judged by `expectation` and counted under `check`.
   */
  async sendValidAs(
    op: OperationSpec,
    key: string,
    as: { credentials?: Credentials; headers?: Array<[string, string]>; wrap?: CredentialWrap },
    check: CheckName,
    expectation: Expectation,
  ): Promise<void> {
    // The first the judge calls valid: the generator's rare slip (a form value its schema refuses) would be blamed on the server.
    // One on the run's own record first: an id no record has would answer 404 before what is sent is looked at.
    const valid = fc
      .sample(this.requests.validRequest(op), { seed: this.session.seedOf(`${op.id}:${key}`), numRuns: 10 })
      .filter((candidate) => this.requests.isValid(op, candidate));
    let r = valid.find((candidate) => Object.values(candidate.path).every((v) => v.kind === 'existing')) ?? valid[0];
    if (!r) return;
    r = await withParents(this.ctx.collections.values(), op, r);
    const existing = Object.values(r.path).some((v) => v.kind === 'existing') ? await this.existing(op) : MISSING_ID;
    const built = buildAt(op, { ...r, chunked: false }, this.session.target.bases, existing);
    const headers = new Headers(built.init.headers);
    for (const [name, value] of as.headers ?? []) headers.set(name, value);
    const out: Outgoing = {
      method: r.method,
      url: built.url,
      headers,
      sent: built.sent,
      ...(as.credentials ? { credentials: as.credentials } : {}),
      ...(as.wrap ? { wrap: as.wrap } : {}),
      ...(built.init.body === undefined || built.init.body === null ? {} : { body: built.init.body }),
    };
    this.session.activity = `${op.id} ${key}`;
    const { exchange, findings } = await this.session.send(op, out, check, expectation);
    this.track(exchange);
    for (const finding of findings) this.session.results.fail(op, check, exchange, finding);
  }

  /**
   * The optional header parameters the document gives the operation, but `If-Match`, which the
   * stateful walks send, and one marked `x-mock: true`, which a real backend ignores.
   */
  private optionalHeaders(op: OperationSpec) {
    const { doc } = this.session.spec;
    return op.params.filter((p) => {
      if (p.in !== 'header' || p.required || p.name.toLowerCase() === 'if-match') return false;
      const param = nodeAt(doc, `#${p.pointer.replace(/\/schema$/, '')}`);
      return !(isRecord(param) && param['x-mock'] === true);
    });
  }

  /**
   * A value of a header parameter its schema takes (`valid`) or refuses, as a header can carry it
   * (visible ASCII and spaces) as it is: HTTP drops a value's leading and trailing spaces (RFC 9110
   * §5.5), so the server would see another one; `unlike` a value it must differ from. Drawn with the
   * seed of `key`. Undefined when the generator finds none.
   */
  headerValue(
    op: OperationSpec,
    p: ParamSpec,
    valid: boolean,
    { unlike, key = `${op.id}:header ${p.name}${valid ? ' valid' : ''}` }: { unlike?: string; key?: string } = {},
  ): string | undefined {
    const { validator } = this.session.spec;
    const values = valid
      ? this.requests.arbs.valid(p.schema).map(String)
      : this.requests.arbs.invalid(p.schema).map((v) => String(v.value));
    try {
      return fc.sample(
        satisfying(
          values,
          (text) =>
            text !== unlike &&
            /^[\x20-\x7E]{0,200}$/.test(text) &&
            text === text.trim() &&
            (validator.atPointer(p.pointer, text).length === 0) === valid,
          `${valid ? 'a valid' : 'an invalid'} value of the header parameter '${p.name}' (#${p.pointer})`,
        ),
        { seed: this.session.seedOf(key), numRuns: 1 },
      )[0];
    } catch (error) {
      if (error instanceof GeneratorGaveUp) return undefined;
      throw error;
    }
  }

  /** Each optional header parameter sent with a value its schema takes, on a valid request: a valid request still. */
  private async goodHeaders(op: OperationSpec): Promise<void> {
    for (const p of this.optionalHeaders(op)) {
      const good = this.headerValue(op, p, true);
      if (good === undefined) continue;
      await this.sendValidAs(op, `header ${p.name}`, { headers: [[p.name, good]] }, 'valid input', { kind: 'valid' });
    }
  }

  /** Each optional header parameter sent with a value its schema refuses, on a valid request: the document's 400 when it documents one, else a 4xx. */
  private async badHeaders(op: OperationSpec): Promise<void> {
    for (const p of this.optionalHeaders(op)) {
      const bad = this.headerValue(op, p, false);
      if (bad === undefined) continue;
      await this.sendValidAs(op, `header ${p.name}`, { headers: [[p.name, bad]] }, 'invalid input', {
        kind: 'invalid',
        why: [`header ${p.name} ${JSON.stringify(bad)} breaks its schema`],
        statuses: [400],
      });
    }
  }

  private async anonymous(op: OperationSpec): Promise<void> {
    if (op.secured) await this.refused(op, 'none');
  }

  private async memberWithoutRole(op: OperationSpec): Promise<void> {
    if (op.roles.length === 0) return;
    if (this.session.target.adminHeaders.length === 0) {
      this.session.results.note(
        op,
        'invalid input',
        `sent with the --header headers; a member's refusal (403) not checked: give an admin's credentials (role ${op.roles.join(', ')}) with --admin-header`,
      );
      return;
    }
    await this.refused(op, 'member');
  }

  /** Every single-exchange check of one operation, within its time budget. */
  async operation(op: OperationSpec): Promise<void> {
    const { readOnly, runs } = this.session.options;
    if (readOnly && !SAFE_METHODS.includes(op.method)) {
      this.session.results.skipOperation(op, `--read-only: ${op.method} is not a safe method`);
      for (const check of ['valid input', 'invalid input', 'limits', 'stateful'] as const)
        this.session.results.skip(op, check, `--read-only: ${op.method} is not a safe method`);
      return;
    }
    const session = this.session;
    await session.timed([op], 'checks', op.id, async () => {
      if (op.body?.required && Object.keys(op.body.content).every((m) => !isJsonMedia(m) && m !== 'multipart/form-data'))
        session.results.unexercised(
          op,
          'valid input',
          `not exercised: verify writes no valid body of ${Object.keys(op.body.content).join(', ') || 'no media type'} (only JSON and multipart/form-data)`,
        );
      else
        await exercise(session, [op], 'valid input', async () => {
          await this.property(op, 'valid input', this.requests.validRequest(op), runs, this.requests.canonicalValid(op));
          await this.goodHeaders(op);
        });
      await exercise(session, [op], 'invalid input', async () => {
        await this.property(op, 'invalid input', this.requests.invalidRequest(op), runs, this.requests.canonicalInvalid(op));
        await this.badHeaders(op);
        await this.anonymous(op);
        await this.memberWithoutRole(op);
        await this.access.operation(op, session.spec.operations.indexOf(op));
      });
      const limits = this.requests.limitRequest(op);
      if (limits) await exercise(session, [op], 'limits', () => this.property(op, 'limits', limits, Math.max(3, Math.ceil(runs / 8))));
      else session.results.skip(op, 'limits', 'the document states no size limit for its input');
    });
  }
}
