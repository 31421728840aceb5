/**
 * Generated single exchanges, per operation, with fast-check (seeded, shrinking):
 *
 * - valid input: path ids (the run's own record, or another valid id), documented query parameters
 *   and bodies drawn from the operation's own schemas;
 * - invalid input: the generator of the contract tests (./request-generator.ts): wrong
 *   types, missing required fields, unknown fields, malformed JSON, wrong content types, hostile
 *   strings and path ids, multipart garbage; a few canonical cases first (each required field
 *   left out, malformed JSON, the wrong media type, no body, a bad id, a bad query value), and
 *   for a secured operation a valid request without credentials (401), for one that needs a role
 *   a valid request with the member's credentials when an admin's were given (403);
 * - limits: bodies over `x-max-body-bytes` and files over their `maxLength`.
 *
 * What the document says about each request (valid, invalid and why, or nothing) comes from the
 * request judge of the contract tests; the answer is judged by ./judge.ts.
 */
import fc from 'fast-check';
import {
  atPointer as nodeAt,
  decodeParam,
  Repeated,
  encodeParam,
  GeneratorGaveUp,
  isJsonMedia,
  MAX_MISSES,
  isRecord,
  satisfying,
  type OpenApiSpec,
  type OperationSpec,
  type ParamSpec,
} from '../openapi-kit/index.ts';
import type { Body, FormField, GeneratedRequest, PathValue, Query } from './generated-request.ts';
import type { RequestGenerator } from './request-generator.ts';
import { RequestJudge } from './request-judge.ts';
import { buildAt, goodFiles } from './request-wire.ts';
import { textOf, type JsonSchema } from '../openapi-kit/index.ts';
import { AccessChecks } from './access.ts';
import {
  EMPTY_FORM,
  formOfFilesOnly,
  formsWithAlteredFile,
  formWithEmptyFilePart,
  formWithLongListItem,
  formWithTextForFile,
  formsWithEachFile,
  formWithMarks,
  jsonAtLimit,
  jsonWithBrokenUtf8,
  jsonWithSpacedParameter,
  UNFINISHED_FORM,
} from './edges.ts';
import type { CollectionFixtures, OwnRecordFixture, OwnRecordOps } from './fixtures.ts';
import type { Expectation, Finding } from './judge.ts';
import type { CheckName } from './results.ts';
import { Counterexample, exercise, SAFE_METHODS, type Session } from './session.ts';
import { BudgetSpent, type Credentials, type Exchange, type Outgoing } from './exchange.ts';

/** An id no record has: what a request that must not touch real data is sent to. */
export const MISSING_ID = 'verify-missing-0';

/**
 * An arbitrary that can draw at all, or a GeneratorGaveUp that says for what value (`where`: the
 * parameter or body and its pointer) and why (the schema a nested generator could not meet).
 */
function located<T>(arb: fc.Arbitrary<T>, where: string): fc.Arbitrary<T> {
  try {
    fc.sample(arb, { seed: 0, numRuns: 1 });
  } catch (error) {
    if (error instanceof GeneratorGaveUp && !error.what.startsWith(where)) throw new GeneratorGaveUp(`${where}: ${error.what}`, MAX_MISSES);
    throw error;
  }
  return arb;
}

/** Ids no record is likely to have, of the shapes id schemas take: text, a number, a UUID. */
const MISSING_CANDIDATES = [MISSING_ID, '999999937', '00000000-0000-4000-8000-0000000a0b0c', 'zz9'];

/** A parameter's values that destroy every caller's data, as an operation's `x-destructive` states them. */
export interface Destructive {
  op: OperationSpec;
  param: string;
  values: readonly string[];
}

/** The document's destructive values (`x-destructive: { name: [reset] }`): sent only to a server this run started. */
export function destructiveValues(spec: Pick<OpenApiSpec, 'operations' | 'doc'>): Destructive[] {
  const out: Destructive[] = [];
  for (const op of spec.operations) {
    const raw = spec.doc.paths[op.path]?.[op.method.toLowerCase()];
    const stated = isRecord(raw) ? raw['x-destructive'] : undefined;
    if (!isRecord(stated)) continue;
    for (const [param, values] of Object.entries(stated))
      if (Array.isArray(values)) out.push({ op, param, values: values.map((v) => String(v).toLowerCase()) });
  }
  return out;
}

/** How often an oversized upload is sent when the connection is reset before the answer. */
const UPLOAD_ATTEMPTS = 5;

const isResetWhileSending = (exchange: Exchange) =>
  exchange.response === null && /EPIPE|ECONNRESET|UND_ERR_SOCKET|other side closed/i.test(exchange.error ?? '');

export function isDestructive(destructive: readonly Destructive[], op: OperationSpec, r: GeneratedRequest): boolean {
  return destructive.some((d) => {
    if (d.op.id !== op.id) return false;
    const v = r.path[d.param];
    return v?.kind === 'literal' && d.values.includes(textOf(v.value).toLowerCase());
  });
}

interface Context {
  generator: RequestGenerator;
  requestJudge: RequestJudge;
  collections: Map<string, CollectionFixtures>;
  ownRecord: OwnRecordFixture | null;
  ownRecordOps: OwnRecordOps | null;
}

export class SingleExchanges {
  private readonly ctx: Context;
  private readonly session: Session;
  private readonly destructive: Destructive[];
  private readonly access: AccessChecks;
  /** Each operation's valid requests, made once: making one draws a value of each of its schemas. */
  private readonly validRequests = new Map<OperationSpec, fc.Arbitrary<GeneratedRequest>>();
  /** Statuses a valid request of the edges must not get either, besides those no valid request gets. */
  private readonly ruledOut = new WeakMap<GeneratedRequest, { statuses: number[]; because: string }>();

  constructor(
    session: Session,
    generator: RequestGenerator,
    collections: Map<string, CollectionFixtures>,
    ownRecord: OwnRecordFixture | null,
    ownRecordOps: OwnRecordOps | null,
  ) {
    this.session = session;
    this.ctx = { generator, requestJudge: new RequestJudge(session.spec.doc), collections, ownRecord, ownRecordOps };
    this.destructive = destructiveValues(session.spec);
    this.access = new AccessChecks(session, this);
  }

  private get arbs() {
    return this.ctx.generator.schemas;
  }

  /** The collection whose single record an operation works on (its item path), if any. */
  private itemCollection(op: OperationSpec): CollectionFixtures | undefined {
    return [...this.ctx.collections.values()].find((c) => c.collection.itemPath === op.path);
  }

  private isOwnRecordItem(op: OperationSpec): boolean {
    const create = this.ctx.ownRecordOps?.create;
    return create !== undefined && op.path.startsWith(`${create.path}/{`);
  }

  /**
   * What a generated `existing` path id stands for, right before a request: the run's own record
   * (created again if a request deleted it), or an id no record has when the run has none it may
   * change. Reads may use any record.
   */
  /** An id no record has that the operation's path parameters accept (MISSING_ID when none of the candidates fits). */
  private missingId(op: OperationSpec): string {
    const { doc, validator } = this.session.spec;
    const params = op.params.filter((p) => p.in === 'path');
    return (
      MISSING_CANDIDATES.find((id) => params.every((p) => validator.atPointer(p.pointer, decodeParam(doc, p, [id])).length === 0)) ??
      MISSING_ID
    );
  }

  private async existing(op: OperationSpec): Promise<string> {
    const safe = SAFE_METHODS.includes(op.method);
    const fixtures = this.itemCollection(op);
    if (fixtures) {
      const id = this.session.options.readOnly ? null : await fixtures.ensure();
      if (id !== null) return id;
      if (safe) {
        const rows = await fixtures.list();
        const first = rows?.find((r) => typeof r.id === 'string');
        if (first) return String(first.id);
      }
      return this.missingId(op);
    }
    const own = this.ctx.ownRecord;
    if (own && this.isOwnRecordItem(op)) {
      if (own.original) return safe && own.id ? own.id : this.missingId(op);
      if (this.session.options.readOnly) return this.missingId(op);
      return (await own.ensure()) ?? this.missingId(op);
    }
    return this.missingId(op);
  }

  // ---------------------------------------------------------------------------------------------
  // Arbitraries
  // ---------------------------------------------------------------------------------------------

  /**
   * A valid value of a parameter's schema, as the texts it is sent as (one per item of an exploded
   * query array): checked by ajv on the value the server reads back from those texts.
   */
  private validTexts(p: ParamSpec): fc.Arbitrary<string[]> {
    const { doc, validator } = this.session.spec;
    const where = `the ${p.in} parameter '${p.name}' (#${p.pointer})`;
    return located(
      satisfying(
        this.arbs.valid(p.schema).map((v) => encodeParam(p, v)),
        (texts) => validator.atPointer(p.pointer, decodeParam(doc, p, texts)).length === 0,
        where,
      ),
      where,
    );
  }

  /** Requests meant to be valid: the record's own id or another valid one, documented query values, bodies of the documented schemas. */
  validRequest(op: OperationSpec): fc.Arbitrary<GeneratedRequest> {
    let arb = this.validRequests.get(op);
    if (!arb) {
      arb = this.makeValidRequest(op);
      this.validRequests.set(op, arb);
    }
    return arb;
  }

  private makeValidRequest(op: OperationSpec): fc.Arbitrary<GeneratedRequest> {
    const pathParams = op.params.filter((p) => p.in === 'path');
    const path = fc.record(
      Object.fromEntries(
        pathParams.map((p) => {
          const literal = this.validTexts(p).map((texts): PathValue => ({ kind: 'literal', value: texts[0] ?? '', encode: true }));
          const idLike = this.itemCollection(op) !== undefined || this.isOwnRecordItem(op);
          return [
            p.name,
            idLike
              ? fc.oneof({ arbitrary: fc.constant<PathValue>({ kind: 'existing' }), weight: 4 }, { arbitrary: literal, weight: 1 })
              : literal,
          ];
        }),
      ) as Record<string, fc.Arbitrary<PathValue>>,
    );
    const queryParams = op.params.filter((p) => p.in === 'query');
    const query: fc.Arbitrary<Query> =
      queryParams.length === 0
        ? fc.constant({ kind: 'params', entries: [] })
        : fc
            .subarray(queryParams.filter((p) => !p.required))
            .map((optional) => [...queryParams.filter((p) => p.required), ...optional])
            .chain((chosen) =>
              fc.tuple(...chosen.map((p) => this.validTexts(p).map((texts) => texts.map((v): [string, string] => [p.name, v])))),
            )
            .map((entries): Query => ({ kind: 'params', entries: entries.flat() }));
    const body = op.body ? this.validBody(op) : fc.constant<Body>({ kind: 'none' });
    return fc
      .record({ path, query, body })
      .map((r): GeneratedRequest => ({ op: op.id, via: 'direct', method: op.method, ...r }))
      .filter((r) => this.session.options.ownServer || !isDestructive(this.destructive, op, r));
  }

  private validBody(op: OperationSpec): fc.Arbitrary<Body> {
    const variants: Array<fc.Arbitrary<Body>> = [];
    const idParams = op.params.filter((p) => p.in === 'path').map((p) => p.name);
    for (const media of Object.values(op.body?.content ?? {})) {
      if (isJsonMedia(media.media)) {
        const where = `the ${media.media} body (#${media.pointer})`;
        variants.push(
          located(
            satisfying(this.arbs.valid(media.schema), (v) => this.session.spec.validator.atPointer(media.pointer, v).length === 0, where),
            where,
          ).chain((value) => {
            // A body that repeats a path parameter carries the URL's value, or leaves it out.
            const repeats = isRecord(value) && idParams.some((k) => k in value);
            if (!repeats) return fc.constant<Body>({ kind: 'json', contentType: media.media, value, note: 'valid' });
            const without = Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([k]) => !idParams.includes(k)));
            return fc.constantFrom<Body>(
              { kind: 'json', contentType: media.media, value: without, note: 'valid' },
              { kind: 'json', contentType: media.media, value, note: "valid, with the URL's id", idFromPath: true },
            );
          }),
        );
      } else if (media.media === 'multipart/form-data') {
        const text = this.arbs.valid(this.ctx.generator.textFieldsSchema(media));
        const files = media.fileFields.map((field) =>
          fc.option(
            fc.constantFrom(...goodFiles(media, field)).map((f): FormField => [field, f]),
            { nil: undefined },
          ),
        );
        variants.push(
          fc.tuple(text, fc.tuple(...files)).map(([value, chosen]): Body => {
            const fields: FormField[] = isRecord(value)
              ? Object.entries(value).map(([k, v]): FormField => [k, typeof v === 'string' ? v : JSON.stringify(v)])
              : [];
            for (const f of chosen) if (f) fields.push(f);
            return { kind: 'form', fields, note: 'valid fields' };
          }),
        );
      }
    }
    return variants.length > 0 ? fc.oneof(...variants) : fc.constant<Body>({ kind: 'none' });
  }

  /** Invalid and hostile requests, as the contract tests generate them. */
  invalidRequest(op: OperationSpec): fc.Arbitrary<GeneratedRequest> {
    return this.ctx.generator
      .request(op)
      .map((r): GeneratedRequest => ({ ...r, via: 'direct' }))
      .filter((r) => this.session.options.ownServer || !isDestructive(this.destructive, op, r));
  }

  /** One invalid request of each common kind, run before the random ones. */
  canonicalInvalid(op: OperationSpec): GeneratedRequest[] {
    const seed = this.session.seedOf(`canonical:${op.id}`);
    const base = (): GeneratedRequest => ({
      op: op.id,
      via: 'direct',
      method: op.method,
      path: Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, { kind: 'existing' } as PathValue])),
      query: { kind: 'params', entries: [] },
      body: { kind: 'none' },
    });
    const out: GeneratedRequest[] = [];
    const sample = <T>(arb: fc.Arbitrary<T>): T | undefined => fc.sample(arb, { seed, numRuns: 1 })[0];
    // A canonical case the schema leaves no room for is left out; the random ones still run.
    const sampleIfAny = <T>(arb: fc.Arbitrary<T>): T | undefined => {
      try {
        return sample(arb);
      } catch (error) {
        if (error instanceof GeneratorGaveUp) return undefined;
        throw error;
      }
    };
    const json = op.body?.content['application/json'];
    const validBody = fc.sample(this.validBody(op), { seed, numRuns: 1 })[0];
    if (json) {
      const value = sample(
        satisfying(
          this.arbs.valid(json.schema),
          (v) => this.session.spec.validator.atPointer(json.pointer, v).length === 0,
          `the application/json body (#${json.pointer})`,
        ),
      );
      const schema = this.arbs.normalize(json.schema);
      const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
      if (isRecord(value)) {
        for (const key of required) {
          const without = Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));
          out.push({
            ...base(),
            body: { kind: 'json', contentType: 'application/json', value: without, note: `missing required '${key}'` },
          });
        }
      }
      out.push({ ...base(), body: { kind: 'text', contentType: 'application/json', text: '{"', note: 'malformed JSON' } });
      const broken = value === undefined ? null : jsonWithBrokenUtf8(value, json, this.propertySchema(json.schema));
      if (broken) out.push({ ...base(), body: broken });
      out.push({
        ...base(),
        body: { kind: 'text', contentType: 'text/plain', text: JSON.stringify(value ?? {}), note: 'JSON as text/plain' },
      });
    }
    if (op.body?.required) out.push({ ...base(), body: { kind: 'none' } });
    // A valid form with a field its schema does not have, and with one of its text fields twice.
    if (op.body?.content['multipart/form-data']) {
      out.push({ ...base(), body: UNFINISHED_FORM }, { ...base(), body: EMPTY_FORM });
      const form = sampleIfAny(satisfying(this.validBody(op), (b) => b.kind === 'form', `a valid form of ${op.id}`));
      if (form?.kind === 'form') {
        out.push({
          ...base(),
          body: { kind: 'form', fields: [...form.fields, ['verify-unknown-field', 'x']], note: 'an unknown form field' },
        });
        const text = form.fields.find(([, v]) => typeof v === 'string');
        if (text)
          out.push({
            ...base(),
            body: { kind: 'form', fields: [...form.fields, [text[0], text[1]]], note: `form field ${text[0]} twice` },
          });
        // Each file field with a file of a type it does not take, and with bytes that are not the type they claim.
        const media = op.body.content['multipart/form-data'];
        for (const altered of formsWithAlteredFile(form.fields, media)) out.push({ ...base(), body: altered });
        const textForFile = formWithTextForFile(form.fields, media);
        if (textForFile) out.push({ ...base(), body: textForFile });
        const json = op.body.content['application/json'];
        const listItem = json ? this.propertySchema(json.schema) : () => undefined;
        const longItem = formWithLongListItem(form.fields, this.propertySchema(this.ctx.generator.textFieldsSchema(media)), (field) => {
          const items = listItem(field)?.items;
          return isRecord(items) ? this.arbs.normalize(items) : undefined;
        });
        if (longItem) out.push({ ...base(), body: longItem });
        const textOnly = form.fields.filter(([name]) => !media.fileFields.includes(name));
        for (const field of media.fileFields) {
          out.push({
            ...base(),
            body: {
              kind: 'form',
              fields: [...textOnly, [field, { file: 'svg', type: 'image/svg+xml', filename: 'a.svg' }]],
              note: `file ${field} of a type it does not take`,
            },
          });
          const claimed = goodFiles(media, field)[0]!;
          out.push({
            ...base(),
            body: {
              kind: 'form',
              fields: [...textOnly, [field, { file: 'garbage', type: claimed.type, filename: claimed.filename }]],
              note: `file ${field} that is not the ${claimed.type} it claims`,
            },
          });
        }
      }
    }
    for (const p of op.params) {
      if (p.in !== 'path' && p.in !== 'query') continue;
      // Short values: a URL past the server's header limit (16 KB for Node) tests the HTTP parser, not the API.
      // A path value keeps the URL on the operation ('', '.' and '..' would make it another URL).
      const bad = sampleIfAny(
        satisfying(
          this.arbs.invalid(p.schema),
          (v) =>
            ((typeof v.value === 'string' && v.value.length <= 200) || typeof v.value === 'number') &&
            (p.in !== 'path' || !['', '.', '..'].includes(String(v.value))),
          `an invalid short value of the ${p.in} parameter '${p.name}' (#${p.pointer})`,
        ),
      );
      if (p.in === 'path') {
        // A value far over any id's length: an answer that echoes it must still be a valid Error.
        const long = { ...base(), body: validBody ?? { kind: 'none' } };
        long.path = { ...long.path, [p.name]: { kind: 'literal', value: new Repeated('a', 2000), encode: true } };
        out.push(long);
      }
      if (!bad) continue;
      const value = String(bad.value);
      if (p.in === 'path') {
        const r = { ...base(), body: validBody ?? { kind: 'none' } };
        r.path = { ...r.path, [p.name]: { kind: 'literal', value, encode: true } };
        out.push(r);
      } else out.push({ ...base(), body: validBody ?? { kind: 'none' }, query: { kind: 'params', entries: [[p.name, value]] } });
    }
    return out.filter((r) => this.session.options.ownServer || !isDestructive(this.destructive, op, r));
  }

  /** The schema of each top-level property of a body schema, its references followed. */
  private propertySchema(schema: JsonSchema): (field: string) => JsonSchema | undefined {
    const properties = this.arbs.normalize(schema).properties;
    return (field) => {
      const property = isRecord(properties) ? properties[field] : undefined;
      return isRecord(property) ? this.arbs.normalize(property) : undefined;
    };
  }

  /** Valid requests at the edges of the document (./edges.ts), run before the generated ones; those the judge does not call valid are left out. */
  canonicalValid(op: OperationSpec): GeneratedRequest[] {
    const seed = this.session.seedOf(`canonical valid:${op.id}`);
    const drawn = (arb: fc.Arbitrary<Body>): Body | undefined => {
      try {
        return fc.sample(arb, { seed, numRuns: 1 })[0];
      } catch (error) {
        if (error instanceof GeneratorGaveUp) return undefined;
        throw error;
      }
    };
    const bodies: Array<Body | null> = [];
    const json = op.body?.content['application/json'];
    if (json) {
      const body = drawn(
        satisfying(this.validBody(op), (b) => b.kind === 'json' && b.contentType === json.media, `a valid JSON body of ${op.id}`),
      );
      if (body?.kind === 'json') bodies.push(jsonAtLimit(body.value, json), jsonWithSpacedParameter(body.value, json));
    }
    const form = op.body?.content['multipart/form-data'];
    if (form) {
      const body = drawn(satisfying(this.validBody(op), (b) => b.kind === 'form', `a valid form of ${op.id}`));
      if (body?.kind === 'form')
        bodies.push(
          formWithMarks(body.fields, this.propertySchema(this.ctx.generator.textFieldsSchema(form))),
          ...formsWithEachFile(body.fields, form),
          formOfFilesOnly(form),
          formWithEmptyFilePart(body.fields, form),
        );
    }
    const path = Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, { kind: 'existing' } as PathValue]));
    const requests = bodies
      .filter((b): b is Body => b !== null)
      .map(
        (body): GeneratedRequest => ({ op: op.id, via: 'direct', method: op.method, path, query: { kind: 'params', entries: [] }, body }),
      )
      .filter((r) => this.isValid(op, r));
    // A file whose content is the type it claims must not get the status the document gives for one that is not.
    const contentStatuses = this.ctx.requestJudge.fileContentStatuses(op);
    for (const r of requests)
      if (contentStatuses.length > 0 && r.body.kind === 'form' && r.body.fields.some(([, v]) => typeof v === 'object' && 'file' in v))
        this.ruledOut.set(r, {
          statuses: contentStatuses,
          because: 'its file is the type it claims',
        });
    return requests;
  }

  /** Bodies and files over the document's limits; null when the operation states none. */
  limitRequest(op: OperationSpec): fc.Arbitrary<GeneratedRequest> | null {
    const arbs = [this.ctx.generator.heavyJson(op), this.ctx.generator.heavyForm(op)].filter((a) => a !== null);
    if (arbs.length === 0) return null;
    return fc.oneof(...arbs).map((batch): GeneratedRequest => ({ ...batch.requests[0]!, via: 'direct' }));
  }

  // ---------------------------------------------------------------------------------------------
  // Sending
  // ---------------------------------------------------------------------------------------------

  /** Sends one generated request and judges it; throws a Counterexample when something is wrong. */
  async send(op: OperationSpec, r: GeneratedRequest, check: CheckName): Promise<void> {
    const existing = Object.values(r.path).some((v) => v.kind === 'existing') ? await this.existing(op) : MISSING_ID;
    const built = buildAt(op, { ...r, chunked: false }, this.session.target.bases, existing);
    const reached = this.session.spec.match(r.method, built.contractPath);
    const verdict =
      reached?.id === op.id
        ? this.ctx.requestJudge.verdict(op, r, existing)
        : { valid: null, why: [`the URL reaches ${reached?.id ?? 'no operation'}`] };
    let expectation: Expectation;
    if (verdict.valid === true) {
      const not = this.ruledOut.get(r);
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
  async makeRoomFor(op: OperationSpec): Promise<void> {
    const fixtures = [...this.ctx.collections.values()].find((c) => c.collection.create.id === op.id);
    if (fixtures) await fixtures.makeRoom(1);
  }

  /** Whether the document says a generated request is valid (a form's text can break what its JSON would not). */
  isValid(op: OperationSpec, r: GeneratedRequest): boolean {
    return this.ctx.requestJudge.verdict(op, r, this.missingId(op)).valid === true;
  }

  /** A generated request as it goes out: its `existing` ids resolved (the run's own record), its body serialised. */
  async outgoing(op: OperationSpec, r: GeneratedRequest): Promise<Outgoing> {
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
    as: { credentials?: Credentials; headers?: Array<[string, string]> },
    check: CheckName,
    expectation: Expectation,
  ): Promise<void> {
    const [r] = fc.sample(this.validRequest(op), { seed: this.session.seedOf(`${op.id}:${key}`), numRuns: 1 });
    if (!r) return;
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
      ...(built.init.body === undefined || built.init.body === null ? {} : { body: built.init.body }),
    };
    this.session.activity = `${op.id} ${key}`;
    const { exchange, findings } = await this.session.send(op, out, check, expectation);
    this.track(exchange);
    for (const finding of findings) this.session.results.fail(op, check, exchange, finding);
  }

  /**
   * Each optional header parameter the document gives the operation (but `If-Match`, which the
   * stateful walks send, and one marked `x-mock: true`, which a real backend ignores), sent with a
   * value its schema refuses on a valid request: the document's 400 when it documents one, else a 4xx.
   */
  private async badHeaders(op: OperationSpec): Promise<void> {
    const { doc, validator } = this.session.spec;
    for (const p of op.params) {
      if (p.in !== 'header' || p.required || p.name.toLowerCase() === 'if-match') continue;
      const param = nodeAt(doc, `#${p.pointer.replace(/\/schema$/, '')}`);
      if (isRecord(param) && param['x-mock'] === true) continue;
      let bad: string | undefined;
      try {
        [bad] = fc.sample(
          satisfying(
            this.arbs.invalid(p.schema).map((v) => String(v.value)),
            // What a header can carry (visible ASCII and spaces), and still breaks the schema.
            (text) => /^[\x20-\x7E]{0,200}$/.test(text) && validator.atPointer(p.pointer, text).length > 0,
            `an invalid value of the header parameter '${p.name}' (#${p.pointer})`,
          ),
          { seed: this.session.seedOf(`${op.id}:header ${p.name}`), numRuns: 1 },
        );
      } catch (error) {
        if (error instanceof GeneratorGaveUp) continue;
        throw error;
      }
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
        await exercise(session, [op], 'valid input', () =>
          this.property(op, 'valid input', this.validRequest(op), runs, this.canonicalValid(op)),
        );
      await exercise(session, [op], 'invalid input', async () => {
        await this.property(op, 'invalid input', this.invalidRequest(op), runs, this.canonicalInvalid(op));
        await this.badHeaders(op);
        await this.anonymous(op);
        await this.memberWithoutRole(op);
        await this.access.operation(op, session.spec.operations.indexOf(op));
      });
      const limits = this.limitRequest(op);
      if (limits) await exercise(session, [op], 'limits', () => this.property(op, 'limits', limits, Math.max(3, Math.ceil(runs / 8))));
      else session.results.skip(op, 'limits', 'the document states no size limit for its input');
    });
  }
}
