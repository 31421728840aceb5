/**
 * Answers on demand, for trying a screen's error, empty and slow states and for resilience tests.
 *
 * - Per request, the `Prefer` header, read as Prism reads it: `code=404` answers the operation's
 *   documented 404 (its first example), `example=NAME` its example of that name (of the lowest 2xx
 *   answer, or of `code`'s); a code the operation does not document is refused with Prism's 404.
 *   `delay=2000` (beyond Prism) holds the answer that long.
 * - Per operation, a scenario file (`--scenario FILE`): by operationId, rules that each take a
 *   share (`rate`) of its requests and give them a status, a delay or a fault.
 *
 *   { "listAccounts": { "status": 503, "rate": 0.5 },
 *     "createAccount": [{ "fault": "drop", "rate": 0.1 }, { "delay": 3000, "rate": 0.2 }] }
 */
import { ConfigError } from './errors.ts';
import { isRecord, type OpenApiSpec, type OperationSpec } from '../openapi-kit/index.ts';

/** `drop`: the connection closes with no answer. `invalid-json`: a 2xx whose body is no JSON. */
export const FAULTS = ['drop', 'invalid-json'] as const;
export type Fault = (typeof FAULTS)[number];

export interface ScenarioRule {
  status?: number;
  delay?: number;
  fault?: Fault;
  /** The share of the operation's requests this rule takes, 0 to 1. */
  rate: number;
}

/** Rules by operationId. */
export type Scenario = Readonly<Record<string, readonly ScenarioRule[]>>;

/**
 * The longest delay a scenario or `Prefer: delay` may ask for: thirty seconds, longer than any
 * client's patience worth testing, short enough that delayed requests cannot pile up connections.
 */
export const MAX_DELAY_MS = 30_000;

const RULE_KEYS = ['status', 'delay', 'fault', 'rate'];

/** Levenshtein distance, to suggest the operationId a misspelt one meant. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

function ruleOf(raw: unknown, where: string, op: OperationSpec): ScenarioRule {
  const fail = (problem: string): never => {
    throw new ConfigError(`${where}: ${problem}`);
  };
  if (!isRecord(raw)) return fail('a rule must be an object such as { "status": 503, "rate": 0.5 }');
  const unknown = Object.keys(raw).find((key) => !RULE_KEYS.includes(key));
  if (unknown !== undefined) fail(`unknown field '${unknown}' (a rule has ${RULE_KEYS.join(', ')})`);
  const { status, delay, fault, rate = 1 } = raw;
  if (status === undefined && delay === undefined && fault === undefined) fail('a rule needs a status, a delay or a fault');
  if (status !== undefined && fault !== undefined) fail('a rule has a status or a fault, not both');
  if (typeof rate !== 'number' || !(rate > 0 && rate <= 1))
    fail(`rate must be a number above 0 and at most 1, not ${JSON.stringify(rate)}`);
  const rule: ScenarioRule = { rate: rate as number };
  if (status !== undefined) {
    const documented = op.statuses.includes(String(status));
    if (typeof status !== 'number' || !Number.isInteger(status) || !(documented || (status >= 400 && status <= 599))) {
      fail(
        `status must be one ${op.id} documents (${op.statuses.join(', ')}) or an error status from 400 to 599, not ${JSON.stringify(status)}`,
      );
    }
    rule.status = status as number;
  }
  if (delay !== undefined) {
    if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_MS) {
      fail(`delay must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}, not ${JSON.stringify(delay)}`);
    }
    rule.delay = delay as number;
  }
  if (fault !== undefined) {
    if (!FAULTS.includes(fault as Fault)) fail(`fault must be one of ${FAULTS.join(', ')}, not ${JSON.stringify(fault)}`);
    rule.fault = fault as Fault;
  }
  return rule;
}

/** A parsed scenario file checked against the document: a ConfigError naming the file and the place otherwise. */
export function parseScenario(value: unknown, spec: OpenApiSpec, file: string): Scenario {
  if (!isRecord(value))
    throw new ConfigError(
      `${file}: a scenario is an object of rules by operationId, e.g. { "listAccounts": { "status": 503, "rate": 0.5 } }`,
    );
  const scenario: Record<string, ScenarioRule[]> = {};
  for (const [id, raw] of Object.entries(value)) {
    const op = spec.operations.find((o) => o.id === id);
    if (!op) {
      const [closest] = [...spec.operations].sort((a, b) => distance(id, a.id) - distance(id, b.id));
      const hint = closest && distance(id, closest.id) <= 3 ? ` (did you mean '${closest.id}'?)` : '';
      throw new ConfigError(`${file}: '${id}' is no operationId of openapi.yaml${hint}`);
    }
    const list = Array.isArray(raw) ? raw : [raw];
    const rules = list.map((rule, i) => ruleOf(rule, Array.isArray(raw) ? `${file}: ${id}[${i}]` : `${file}: ${id}`, op));
    const total = rules.reduce((sum, r) => sum + r.rate, 0);
    if (total > 1 + 1e-9) throw new ConfigError(`${file}: ${id}: the rates add up to ${total}, more than 1`);
    scenario[id] = rules;
  }
  return scenario;
}

/** The rule a request falls under: each rule takes its share of the requests, in order; none for the rest. */
export function pickRule(rules: readonly ScenarioRule[], random: () => number = Math.random): ScenarioRule | undefined {
  const draw = random();
  let upTo = 0;
  for (const rule of rules) {
    upTo += rule.rate;
    if (draw < upTo) return rule;
  }
  return undefined;
}

/** The longest `Prefer` header read (its maxLength in openapi.yaml); a longer one is refused with 422, unread. */
const MAX_PREFER_LENGTH = 200;

/** `text` cut at each comma outside double quotes, in one pass (a look-ahead per comma took quadratic time). */
function splitOutsideQuotes(text: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

export interface Preferences {
  code?: number;
  example?: string;
  delay?: number;
}

/**
 * The `Prefer` header (RFC 7240) as Prism reads it: comma-separated preferences, each `token=value`
 * with optional `;` parameters (ignored), the first of a token winning, unknown tokens ignored.
 * A code that is not three digits or a delay that is not a whole number of milliseconds is a
 * problem (Prism answers 422).
 */
export function parsePrefer(header: string | null): { preferences: Preferences } | { problem: string } {
  const preferences: Preferences = {};
  const seen = new Set<string>();
  if (header !== null && header.length > MAX_PREFER_LENGTH) {
    return { problem: `Prefer is at most ${MAX_PREFER_LENGTH} characters long, not ${header.length}` };
  }
  // Stryker disable next-line StringLiteral: any text here without code, example or delay is ignored like no header at all
  for (const preference of splitOutsideQuotes(header ?? '')) {
    // split always gives at least one piece, the text before any `;`.
    const first = preference.split(';')[0]!;
    const at = first.indexOf('=');
    const token = (at < 0 ? first : first.slice(0, at)).trim().toLowerCase();
    const value =
      at < 0
        ? ''
        : first
            .slice(at + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    // An empty token is no preference: it matches none of those below.
    if (seen.has(token)) continue;
    seen.add(token);
    if (token === 'code') {
      if (!/^\d{3}$/.test(value)) return { problem: `Prefer: code must be a three-digit status, not '${value}'` };
      preferences.code = Number(value);
    } else if (token === 'example') {
      preferences.example = value;
    } else if (token === 'delay') {
      const ms = Number(value);
      if (!/^\d+$/.test(value) || ms > MAX_DELAY_MS) {
        return { problem: `Prefer: delay must be a whole number of milliseconds up to ${MAX_DELAY_MS}, not '${value}'` };
      }
      preferences.delay = ms;
    }
  }
  return { preferences };
}
