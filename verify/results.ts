/**
 * What a run found, per operation and check: the exchanges counted, the statuses seen (the
 * coverage matrix), the failures with everything needed to reproduce them, and why a check or an
 * operation was not exercised. The reporters read only this.
 */
import type { OpenApiSpec, OperationSpec, Violation } from '../openapi-kit/index.ts';
import { toCurl } from './curl.ts';
import { describeAnswer, type Finding } from './judge.ts';
import type { Exchange } from './exchange.ts';

const CHECKS = ['responses', 'valid input', 'invalid input', 'limits', 'stateful', 'links'] as const;
export type CheckName = (typeof CHECKS)[number];

export const CHECK_DESCRIPTIONS: Record<CheckName, string> = {
  responses:
    'every answer honours the document: documented status, Content-Type, required headers, body schema (set-up and clean-up included)',
  'valid input': 'generated valid requests get a documented success, or a documented 4xx valid input can get',
  'invalid input': 'generated invalid and hostile requests get a documented 4xx with the Error body',
  limits: 'bodies and files over the documented limits get 413',
  stateful: 'sequences of creates, reads, replaces and deletes behave as the document says',
  links: "the document's links, followed from an answer that carries them, lead to documented answers",
};

export interface Failure {
  operationId: string;
  method: string;
  path: string;
  check: CheckName;
  title: string;
  /** The request as a runnable curl line. */
  curl: string;
  /** Status, Content-Type and the start of the body (or why no answer came). */
  response: string;
  violations: Violation[];
  /** For a stateful failure: the shortest sequence found, one curl line per request, the failing one last. */
  sequence?: string[];
  /** The fast-check seed and path that replay this counterexample. */
  replay?: string;
}

export interface CheckResult {
  status: 'pass' | 'fail' | 'skip';
  requests: number;
  failures: Failure[];
  /** Why it was skipped, or a note. */
  note?: string;
  /** Why it was not exercised in full (a generator that gave up, a budget spent), when it was not. */
  unexercised?: string;
}

export interface OperationResult {
  operationId: string;
  method: string;
  path: string;
  status: 'pass' | 'fail' | 'skip';
  why: string;
  requests: number;
  documented: string[];
  /** Statuses answered, with how often. */
  seen: Record<string, number>;
  checks: Record<CheckName, CheckResult>;
}

/** One link of the document (a response's `links`) and how often the run followed it. */
export interface LinkResult {
  key: string;
  name: string;
  from: string;
  status: string;
  to: string;
  /** Times the link was followed: its target sent with the values the source's answer gave. */
  followed: number;
  /** The target's statuses, with how often. */
  statuses: Record<string, number>;
  failures: number;
  /** Why it was never followed. */
  why?: string;
}

export interface RunResults {
  baseUrl: string;
  /** The server was the embedded mock this run started. */
  embedded: boolean;
  spec: string;
  seed: number;
  runs: number;
  readOnly: boolean;
  startedAt: string;
  ms: number;
  requests: number;
  operations: OperationResult[];
  links: LinkResult[];
  summary: {
    operations: number;
    passed: number;
    failed: number;
    notExercised: number;
    requests: number;
    links: number;
    linksFollowed: number;
    statuses: number;
    statusesSeen: number;
  };
  notes: string[];
}

/** At most this many failures are kept per operation and check; the rest are counted. */
const MAX_FAILURES_KEPT = 3;

interface Entry {
  op: OperationSpec;
  seen: Map<number, number>;
  checks: Map<CheckName, { requests: number; failures: Failure[]; dropped: number; skip?: string; note?: string; cut?: string }>;
  skip?: string;
}

export class Results {
  private readonly entries = new Map<string, Entry>();
  readonly notes: string[] = [];
  /** Called on each new failure (the progress line prints it). */
  onFailure: ((failure: Failure) => void) | undefined;

  readonly spec: OpenApiSpec;

  private readonly linkEntries = new Map<string, LinkResult>();

  constructor(spec: OpenApiSpec) {
    this.spec = spec;
    for (const op of spec.operations) this.entries.set(op.id, { op, seen: new Map(), checks: new Map() });
    for (const l of spec.links)
      this.linkEntries.set(l.key, {
        key: l.key,
        name: l.name,
        from: l.from,
        status: l.status,
        to: l.to,
        followed: 0,
        statuses: {},
        failures: 0,
      });
  }

  /** A link followed once: the status its target answered, and whether that broke anything. */
  linkFollowed(key: string, status: number | undefined, failed: boolean): void {
    const l = this.linkEntries.get(key);
    if (!l) return;
    l.followed++;
    if (status !== undefined) l.statuses[String(status)] = (l.statuses[String(status)] ?? 0) + 1;
    if (failed) l.failures++;
  }

  /** The links so far, for the progress line. */
  linkTally(): { declared: number; followed: number; failures: number } {
    const all = [...this.linkEntries.values()];
    return { declared: all.length, followed: all.filter((l) => l.followed > 0).length, failures: all.filter((l) => l.failures > 0).length };
  }

  /** Why a link could not be followed (kept when it never was). */
  linkNotFollowed(key: string, why: string): void {
    const l = this.linkEntries.get(key);
    if (!l) return;
    l.why ??= why;
    this.check(this.spec.byId(l.from), 'links').skip ??= `${l.name} not followed: ${why}`;
  }

  private entry(op: OperationSpec): Entry {
    const e = this.entries.get(op.id);
    if (!e) throw new Error(`unknown operation ${op.id}`);
    return e;
  }

  private check(op: OperationSpec, name: CheckName) {
    const checks = this.entry(op).checks;
    let c = checks.get(name);
    if (!c) {
      c = { requests: 0, failures: [], dropped: 0 };
      checks.set(name, c);
    }
    return c;
  }

  /** Counts an exchange under an operation's check (and under "responses", which judges every answer), and the status it got. */
  count(exchange: Exchange, check: CheckName): void {
    if (!exchange.op) return;
    this.check(exchange.op, check).requests++;
    if (check !== 'responses') this.check(exchange.op, 'responses').requests++;
    const status = exchange.response?.status;
    if (status !== undefined) {
      const seen = this.entry(exchange.op).seen;
      seen.set(status, (seen.get(status) ?? 0) + 1);
    }
  }

  /**
   * Records a failure of `op` (which may be another operation than the exchange's, e.g. the write a
   * later read disproves). An answer that breaks the document is a failure of "responses", whichever
   * check sent the request.
   */
  fail(
    op: OperationSpec,
    check: CheckName,
    exchange: Exchange,
    finding: Finding,
    extra: { sequence?: string[]; replay?: string } = {},
  ): void {
    if (finding.violations.length > 0) check = 'responses';
    const c = this.check(op, check);
    const failure: Failure = {
      operationId: op.id,
      method: op.method,
      path: op.path,
      check,
      title: finding.title,
      curl: toCurl(exchange.request),
      response: describeAnswer(exchange),
      violations: finding.violations,
      ...extra,
    };
    if (c.failures.some((f) => f.title === failure.title)) return;
    if (c.failures.length >= MAX_FAILURES_KEPT) c.dropped++;
    else c.failures.push(failure);
    this.onFailure?.(failure);
  }

  /** Marks a check of an operation as not run, and why. */
  skip(op: OperationSpec, check: CheckName, why: string): void {
    const c = this.check(op, check);
    c.skip ??= why;
  }

  /** Marks a whole operation as not exercised, and why. */
  skipOperation(op: OperationSpec, why: string): void {
    this.entry(op).skip ??= why;
  }

  /**
   * A check that could not be exercised in full: skipped when it sent nothing, else a note beside
   * what it did send.
   */
  unexercised(op: OperationSpec, check: CheckName, why: string): void {
    const c = this.check(op, check);
    c.cut ??= why;
    if (c.requests > 0) c.note ??= why;
    else c.skip ??= why;
  }

  /** An operation's figures so far, for the progress lines. */
  tally(op: OperationSpec, phase: 'checks' | 'stateful' | 'links'): { requests: number; failures: number; unexercised: string[] } {
    let requests = 0;
    let failures = 0;
    const unexercised: string[] = [];
    for (const [name, c] of this.entry(op).checks) {
      const of = name === 'stateful' ? 'stateful' : name === 'links' ? 'links' : 'checks';
      if (of !== phase) continue;
      if (name !== 'responses') requests += c.requests;
      failures += c.failures.length + c.dropped;
      if (c.cut) unexercised.push(`${name}: ${c.cut}`);
    }
    return { requests, failures, unexercised };
  }

  note(op: OperationSpec, check: CheckName, note: string): void {
    this.check(op, check).note ??= note;
  }

  hasFailures(op: OperationSpec, check: CheckName): boolean {
    return (this.entry(op).checks.get(check)?.failures.length ?? 0) > 0;
  }

  finish(meta: Omit<RunResults, 'operations' | 'links' | 'summary' | 'notes' | 'requests'>, requests: number): RunResults {
    const operations: OperationResult[] = [];
    for (const { op, seen, checks, skip } of this.entries.values()) {
      const out = {} as Record<CheckName, CheckResult>;
      let requests = 0;
      let failures = 0;
      for (const name of CHECKS) {
        const c = checks.get(name);
        requests += c?.requests ?? 0;
        failures += c?.failures.length ?? 0;
        const dropped = c && c.dropped > 0 ? ` (${c.dropped} more failure(s) of the same check not shown)` : '';
        const result: CheckResult = {
          status: c && c.failures.length > 0 ? 'fail' : c && c.requests > 0 ? 'pass' : 'skip',
          requests: c?.requests ?? 0,
          failures: c?.failures ?? [],
        };
        const note = (c?.failures.length ? dropped.trim() : '') || c?.note || (result.status === 'skip' ? c?.skip : undefined);
        if (note) result.note = note;
        if (c?.cut) result.unexercised = c.cut;
        out[name] = result;
      }
      const statuses = [...seen.keys()].sort((a, b) => a - b);
      const status: OperationResult['status'] = failures > 0 ? 'fail' : requests > 0 ? 'pass' : 'skip';
      let why: string;
      if (status === 'fail') {
        const first = CHECKS.map((n) => out[n].failures[0]).find((f) => f !== undefined)!;
        why = `${failures} failure${failures === 1 ? '' : 's'}: ${first.title}`;
      } else if (status === 'pass') why = `${requests} requests; answered ${statuses.join(', ')}`;
      else why = skip ?? CHECKS.map((n) => checks.get(n)?.skip).find((s) => s !== undefined) ?? 'not exercised';
      operations.push({
        operationId: op.id,
        method: op.method,
        path: op.path,
        status,
        why,
        requests,
        documented: op.statuses,
        seen: Object.fromEntries(statuses.map((s) => [String(s), seen.get(s)!])),
        checks: out,
      });
    }
    const links = [...this.linkEntries.values()].map((l) => {
      const { why, ...rest } = l;
      return l.followed === 0 ? { ...rest, why: why ?? 'not followed' } : rest;
    });
    const summary = {
      operations: operations.length,
      passed: operations.filter((o) => o.status === 'pass').length,
      failed: operations.filter((o) => o.status === 'fail').length,
      notExercised: operations.filter((o) => o.status === 'skip').length,
      requests,
      links: links.length,
      linksFollowed: links.filter((l) => l.followed > 0).length,
      // Each documented status (a code or a range; `default` names none) and whether the run saw it answered.
      statuses: operations.reduce((n, o) => n + o.documented.filter((d) => d !== 'default').length, 0),
      statusesSeen: operations.reduce((n, o) => n + o.documented.filter((d) => d !== 'default' && statusSeen(d, o.seen)).length, 0),
    };
    return { ...meta, requests, operations, links, summary, notes: this.notes };
  }
}

/** Whether a documented status (`200`, `4XX`, `default`) was seen among the statuses answered. */
export function statusSeen(documented: string, seen: Record<string, number>): boolean {
  if (/^\d{3}$/.test(documented)) return (seen[documented] ?? 0) > 0;
  if (/^\dXX$/i.test(documented)) return Object.keys(seen).some((s) => s[0] === documented[0]);
  return false;
}
