/**
 * The own-record walk's (./own-record-model.ts) commands for what a server must refuse and leave as
 * it was: an Idempotency-Key sent again (the first answer again) or with another body or on another
 * record (422), another member's changes and reads (403), a change without If-Match (428) or with a
 * stale or weak one (412).
 */
import fc from 'fast-check';
import { isRecord, type OperationSpec } from '../openapi-kit/index.ts';
import { bodyJson, requiresIfMatch, type Exchange, type Outgoing } from './exchange.ts';
import { fileBytes } from './request-wire.ts';
import { canonical, disproved, step } from './stateful.ts';
import { OwnRecordCommands } from './own-record-commands.ts';
import { otherBytes, reversed, type Cmd, type Payload } from './own-record-state.ts';

export class OwnRecordRefusals extends OwnRecordCommands {
  /**
   * A create sent with an Idempotency-Key, then again: the first 201 comes back (body and ETag) and
   * nothing more is made; then the same key with another body: 422, and nothing changes.
   */
  protected createKeyReuse(first: Payload, other: Payload, key: string): Cmd {
    const self = this;
    const op = this.ops.create;
    const header = this.keyHeader(op)!;
    const created = this.create(first, { header, value: key });
    return {
      check: (m) => m.fields === null,
      toString: () => 'createKeyReuse()',
      async run(m, real) {
        await created.run(m, real);
        const firstAnswer = real.log.findLast((e) => e.op?.id === op.id);
        const again = await step(self.session, real, op, self.keyed(self.outgoing(op, undefined, first), header, key), {
          kind: 'exact',
          statuses: [201],
          why: `the same create sent again with its ${header}`,
        });
        const got = (exchange: Exchange | undefined, name: string) => exchange?.response?.headers.get(name) ?? null;
        if (
          got(again, 'etag') !== got(firstAnswer, 'etag') ||
          got(again, 'location') !== got(firstAnswer, 'location') ||
          canonical(bodyJson(again.response)) !== canonical(bodyJson(firstAnswer?.response ?? null))
        )
          disproved(real, again, op, `the repeated create did not answer its first 201 again (body, ETag and Location)`);
        await self.readMine(m, real, op, `reading the own record after a create repeated with its ${header}`);
        await step(self.session, real, op, self.keyed(self.outgoing(op, undefined, other), header, key), {
          kind: 'exact',
          statuses: [422],
          why: `another create sent with the ${header} of an earlier one`,
        });
        // Another body, if only by the bytes of its file.
        const otherFile = first.upload && otherBytes(first.upload) !== first.upload ? { ...first, upload: otherBytes(first.upload) } : null;
        if (otherFile)
          await step(self.session, real, op, self.keyed(self.outgoing(op, undefined, otherFile), header, key), {
            kind: 'exact',
            statuses: [422],
            why: `the same create with another file (the same type, other bytes) sent with the ${header} of the first`,
          });
        await self.readMine(m, real, op, `reading the own record after a create refused for its reused ${header}`);
        // A key is one save, of one operation: the create's key on an update answers 422 too.
        const update = self.ops.update;
        const [change] = update
          ? fc.sample(self.payloads(update, 1), { seed: self.session.seedOf('walk:key on another operation'), numRuns: 1 })
          : [];
        if (update && change && self.keyHeader(update) !== null && m.id !== null) {
          await step(self.session, real, update, self.keyed(self.outgoing(update, m.id, change), self.keyHeader(update)!, key), {
            kind: 'exact',
            statuses: [422],
            why: `an update sent with the ${header} of a create`,
          });
          await self.readMine(m, real, update, `reading the own record after an update refused for the ${header} of a create`);
        }
      },
    };
  }

  /**
   * One update sent with an Idempotency-Key, then again (the first answer comes back, ETag and all,
   * and nothing more changes), then the same key with another body: 422, and nothing changes
   * (the IETF draft's answer; a server answering the first save again would drop the new edit unseen).
   */
  protected keyReuse(first: Payload, other: Payload, key: string): Cmd {
    const self = this;
    const op = this.ops.update!;
    const header = this.keyHeader()!;
    const keyed = (id: string, p: Payload): Outgoing => {
      const out = self.outgoing(op, id, p);
      const headers = new Headers(out.headers);
      headers.set(header, key);
      return { ...out, headers };
    };
    return {
      check: (m) => m.id !== null,
      toString: () => 'keyReuse()',
      async run(m, real) {
        const id = m.id!;
        const saved = await step(self.session, real, op, keyed(id, first), {
          kind: 'exact',
          statuses: [200],
          why: `updating the own record with ${header} ${key}`,
        });
        self.noteTag(m, real, saved, op);
        m.fields = { ...m.fields, ...first.fields };
        if (first.upload) m.upload = { bytes: fileBytes(first.upload), type: first.upload.type };
        m.writer = op;
        // The same save: JSON with its keys in another order is the same value (RFC 8259: an object is unordered).
        const again = await step(self.session, real, op, keyed(id, first.form ? first : { ...first, fields: reversed(first.fields) }), {
          kind: 'exact',
          statuses: [200],
          why: `the same update sent again with its ${header}${first.form ? '' : ', its JSON keys in another order'}`,
        });
        const tag = again.response?.headers.get('etag') ?? null;
        if (tag !== m.tags.at(-1))
          disproved(
            real,
            again,
            op,
            `the repeated save answered the ETag ${tag ?? '(none)'}, not its first answer's ${m.tags.at(-1) ?? '(none)'}`,
          );
        await self.readMine(m, real, op, `reading the own record after a save repeated with its ${header}`);
        await step(self.session, real, op, keyed(id, other), {
          kind: 'exact',
          statuses: [422],
          why: `another update sent with the ${header} of an earlier one`,
        });
        await self.readMine(m, real, op, `reading the own record after an update refused for its reused ${header}`);
      },
    };
  }

  /** An update of a new own record sent with the key of an update of the one before (deleted): 422, and nothing changes. */
  protected keyOnAnotherRecord(p: Payload, key: string): Cmd {
    const self = this;
    const op = this.ops.update!;
    const header = this.keyHeader()!;
    return {
      check: (m) => m.id !== null,
      toString: () => 'keyOnAnotherRecord()',
      async run(m, real) {
        await step(self.session, real, op, self.keyed(self.outgoing(op, m.id!, p), header, key), {
          kind: 'exact',
          statuses: [422],
          why: `an update of a new own record sent with the ${header} of an update of the one before`,
        });
        await self.readMine(m, real, op, `reading the own record after an update refused for the ${header} of another record`);
      },
    };
  }

  /** Another member (--other-header) is refused the own record: its update, its delete and its upload answer 403, and it stays as it was; their own read is never this record. */
  protected foreign(p: Payload): Cmd {
    const self = this;
    return {
      check: (m) => m.id !== null,
      toString: () => 'asOtherMember()',
      async run(m, real) {
        const id = m.id!;
        const as = { credentials: 'other' as const, ifMatch: self.session.target.etag ?? '*' };
        if (self.ops.update)
          await step(
            self.session,
            real,
            self.ops.update,
            { ...self.outgoing(self.ops.update, id, p), ...as },
            {
              kind: 'exact',
              statuses: [403],
              why: "another member updating the member's own record (with its current ETag)",
            },
          );
        if (self.ops.remove)
          await step(
            self.session,
            real,
            self.ops.remove,
            { method: 'DELETE', url: self.url(self.ops.remove, id), ...as },
            {
              kind: 'exact',
              statuses: [403],
              why: "another member deleting the member's own record (with its current ETag)",
            },
          );
        if (self.ops.file)
          await step(
            self.session,
            real,
            self.ops.file,
            { method: 'GET', url: self.url(self.ops.file, id), credentials: 'other' },
            {
              kind: 'exact',
              statuses: [403],
              why: "another member reading the member's upload",
            },
          );
        // Their own record is theirs alone: asking for it must never answer with this member's.
        const theirs = await step(
          self.session,
          real,
          self.ops.mine,
          { method: 'GET', url: self.url(self.ops.mine), credentials: 'other' },
          { kind: 'unspecified' },
        );
        const body = bodyJson(theirs.response);
        if (theirs.response?.status === 200 && isRecord(body) && body.id === id)
          disproved(real, theirs, self.ops.mine, "another member asking for their own record got the member's");
        await self.readMine(
          m,
          real,
          self.ops.update ?? self.ops.remove ?? self.ops.mine,
          "reading the own record after another member's refused changes",
        );
      },
    };
  }

  /** A change without If-Match answers 428; with an ETag from before the last write, 412 and the current ETag. Neither changes anything. */
  protected preconditions(p: Payload): Cmd {
    const self = this;
    return {
      check: (m) => m.id !== null,
      toString: () => 'preconditions()',
      async run(m, real) {
        const id = m.id!;
        const changes: Array<[OperationSpec, () => Outgoing]> = [];
        if (self.ops.update && requiresIfMatch(self.ops.update))
          changes.push([self.ops.update, () => self.outgoing(self.ops.update!, id, p)]);
        if (self.ops.remove && requiresIfMatch(self.ops.remove))
          changes.push([self.ops.remove, () => ({ method: 'DELETE', url: self.url(self.ops.remove!, id) })]);
        for (const [op, out] of changes)
          await step(
            self.session,
            real,
            op,
            { ...out(), ifMatch: null },
            { kind: 'exact', statuses: [428], why: `${op.method} of the own record without If-Match` },
          );
        const [stale, current] = [m.tags.at(-2), m.tags.at(-1)];
        if (stale !== undefined && current !== undefined) {
          for (const [op, out] of changes) {
            const exchange = await step(
              self.session,
              real,
              op,
              { ...out(), ifMatch: stale },
              {
                kind: 'exact',
                statuses: [412],
                why: `${op.method} of the own record with the ETag it had before its last write (${stale})`,
              },
            );
            const tag = exchange.response?.headers.get('etag');
            if (tag !== current)
              disproved(real, exchange, op, `the 412 answer's ETag is ${tag ?? 'missing'}, not the own record's current ${current}`);
          }
        }
        // If-Match compares strongly (RFC 9110 13.1.1): the current tag made weak matches nothing.
        if (current?.startsWith('"'))
          for (const [op, out] of changes)
            await step(
              self.session,
              real,
              op,
              { ...out(), ifMatch: `W/${current}` },
              {
                kind: 'exact',
                statuses: [412],
                why: `${op.method} of the own record with If-Match W/${current} (a weak tag never matches)`,
              },
            );
        await self.readMine(
          m,
          real,
          self.ops.update ?? self.ops.remove ?? self.ops.mine,
          'reading the own record after changes refused for their If-Match',
        );
      },
    };
  }
}
