/**
 * The requests single exchanges (./singles.ts) send, per operation, with fast-check (seeded,
 * shrinking):
 *
 * - valid input: path ids (the run's own record, or another valid id), documented query parameters
 *   and bodies drawn from the operation's own schemas; and valid requests at the edges of the
 *   document (./edges.ts);
 * - invalid input: the generator of the contract tests (./request-generator.ts): wrong
 *   types, missing required fields, unknown fields, malformed JSON, wrong content types, hostile
 *   strings and path ids, multipart garbage; a few canonical cases first (each required field
 *   left out, malformed JSON, the wrong media type, no body, a bad id, a bad query value);
 * - limits: bodies over `x-max-body-bytes` and files over their `maxLength`.
 *
 * A request with a destructive value (./destructive.ts) is left out unless the run started the server.
 */
import fc from 'fast-check';
import {
  decodeParam,
  Repeated,
  encodeParam,
  GeneratorGaveUp,
  isJsonMedia,
  MAX_MISSES,
  isRecord,
  satisfying,
  type OperationSpec,
  type ParamSpec,
} from '../openapi-kit/index.ts';
import { isDotSegment, type Body, type FormField, type GeneratedRequest, type PathValue, type Query } from './generated-request.ts';
import type { RequestGenerator } from './request-generator.ts';
import type { RequestJudge } from './request-judge.ts';
import { goodFiles } from './request-wire.ts';
import { isParentParam } from './nested-fixtures.ts';
import type { JsonSchema } from '../openapi-kit/index.ts';
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
import type { CollectionFixtures, OwnRecordOps } from './fixtures.ts';
import type { Session } from './session.ts';
import { destructiveValues, isDestructive, type Destructive } from './destructive.ts';
import { missingId } from './missing-id.ts';

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

/** What the requests are made from: the document's generator and judge, and the records verify may use. */
export interface RequestContext {
  generator: RequestGenerator;
  requestJudge: RequestJudge;
  collections: Map<string, CollectionFixtures>;
  ownRecordOps: OwnRecordOps | null;
}

export class SingleRequests {
  private readonly ctx: RequestContext;
  private readonly session: Session;
  private readonly destructive: Destructive[];
  /** Each operation's valid requests, made once: making one draws a value of each of its schemas. */
  private readonly validRequests = new Map<OperationSpec, fc.Arbitrary<GeneratedRequest>>();
  /** Statuses a valid request of the edges must not get either, besides those no valid request gets. */
  private readonly ruledOut = new WeakMap<GeneratedRequest, { statuses: number[]; because: string }>();

  constructor(session: Session, ctx: RequestContext) {
    this.session = session;
    this.ctx = ctx;
    this.destructive = destructiveValues(session.spec);
  }

  /** The schema walker the requests are drawn with. */
  get arbs() {
    return this.ctx.generator.schemas;
  }

  /** The collection whose single record an operation works on (its item path), if any. */
  itemCollection(op: OperationSpec): CollectionFixtures | undefined {
    return [...this.ctx.collections.values()].find((c) => c.collection.itemPath === op.path);
  }

  /** Whether an operation works on the record each caller has one of (a path under its create). */
  isOwnRecordItem(op: OperationSpec): boolean {
    const create = this.ctx.ownRecordOps?.create;
    return create !== undefined && op.path.startsWith(`${create.path}/{`);
  }

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
          const literal = this.validTexts(p)
            .filter((texts) => !isDotSegment(texts[0] ?? ''))
            .map((texts): PathValue => ({ kind: 'literal', value: texts[0] ?? '', encode: true }));
          const idLike =
            this.itemCollection(op) !== undefined || this.isOwnRecordItem(op) || isParentParam(this.ctx.collections.values(), op, p.name);
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
      // A body that names no media type: never to be read as if it had named JSON (nor ignored where a body is optional).
      out.push({ ...base(), body: { kind: 'text', contentType: null, text: JSON.stringify(value ?? {}), note: 'no content type' } });
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
    // A body the document makes optional, left out: the request is valid without it.
    if (op.body && !op.body.required) bodies.push({ kind: 'none' });
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

  /** Whether the document says a generated request is valid (a form's text can break what its JSON would not). */
  isValid(op: OperationSpec, r: GeneratedRequest): boolean {
    return this.ctx.requestJudge.verdict(op, r, missingId(this.session.spec, op)).valid === true;
  }

  /** Statuses a valid request of the edges must not get either (see canonicalValid), if any. */
  ruledOutOf(r: GeneratedRequest): { statuses: number[]; because: string } | undefined {
    return this.ruledOut.get(r);
  }
}
