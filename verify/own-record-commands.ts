/**
 * The commands of the own-record model (./own-record-model.ts) that the generated sequences draw
 * from: create (201, or 409 for a second), update (the fields sent changed, the others kept; 404
 * without a record), delete (204, then none), the uploaded file as uploaded, and the caller's read.
 */
import { isRecord } from '../openapi-kit/index.ts';
import { bodyJson } from './exchange.ts';
import { fileBytes } from './request-wire.ts';
import { MISSING_ID } from './missing-id.ts';
import { disproved, locationProblem, step } from './stateful.ts';
import { OwnRecordState, type Cmd, type Payload } from './own-record-state.ts';

export class OwnRecordCommands extends OwnRecordState {
  protected create(p: Payload, key?: { header: string; value: string }): Cmd {
    const self = this;
    const op = this.ops.create;
    return {
      check: () => true,
      toString: () => `create(${p.form ? 'form' : 'json'}${p.upload ? ` + ${p.upload.type}` : ''})`,
      async run(m, real) {
        const exists = m.fields !== null;
        const plain = self.outgoing(op, undefined, p);
        const exchange = await step(self.session, real, op, key ? self.keyed(plain, key.header, key.value) : plain, {
          kind: 'exact',
          statuses: exists ? [409] : [201],
          why: exists ? 'creating a second own record' : 'creating the own record',
        });
        if (exists) return self.readMine(m, real, op, 'reading the own record after a refused second create');
        real.fixture.track(exchange);
        m.tags = [];
        self.noteTag(m, real, exchange, op);
        const body = bodyJson(exchange.response);
        if (!isRecord(body) || typeof body.id !== 'string') disproved(real, exchange, op, 'the 201 body has no string id');
        Object.assign(m, { fields: { ...p.fields }, id: body.id, lastId: body.id, createdAt: body.createdAt, writer: op });
        m.upload = p.upload ? { bytes: fileBytes(p.upload), type: p.upload.type } : null;
        const problem = self.mismatch(m, body);
        if (problem) disproved(real, exchange, op, `the 201 body is not the own record as sent: ${problem}`);
        const record = self.ownPath(body.id);
        const location = record === null ? null : locationProblem(exchange, record);
        if (location) disproved(real, exchange, op, location);
        await self.readMine(m, real, op, 'reading the created own record back');
      },
    };
  }

  protected update(p: Payload, options: { listedTag?: boolean } = {}): Cmd {
    const self = this;
    const op = this.ops.update!;
    return {
      check: () => true,
      toString: () => `update(${p.form ? 'form' : 'json'}: ${Object.keys(p.fields).join(',')}${p.upload ? ` + ${p.upload.type}` : ''})`,
      async run(m, real) {
        const exists = m.fields !== null;
        const id = m.id ?? m.lastId ?? MISSING_ID;
        const current = m.tags.at(-1);
        // If-Match is a list (RFC 9110 13.1.1): one of its tags being current lets the change through.
        const listed = options.listedTag && exists && current !== undefined ? { ifMatch: `"verify-other-tag", ${current}` } : {};
        const exchange = await step(
          self.session,
          real,
          op,
          { ...self.outgoing(op, id, p), ...listed },
          {
            kind: 'exact',
            statuses: exists ? [200] : [404],
            why: exists
              ? `updating the own record${'ifMatch' in listed ? ` with If-Match ${listed.ifMatch}` : ''}`
              : 'updating an own record that does not exist',
          },
        );
        if (!exists) return;
        self.noteTag(m, real, exchange, op);
        m.fields = { ...m.fields, ...p.fields };
        if (p.upload) m.upload = { bytes: fileBytes(p.upload), type: p.upload.type };
        m.writer = op;
        const problem = self.mismatch(m, bodyJson(exchange.response));
        if (problem)
          disproved(real, exchange, op, `the 200 body is not the own record with the fields sent changed and the others kept: ${problem}`);
        await self.readMine(m, real, op, 'reading the updated own record back');
      },
    };
  }

  protected remove(): Cmd {
    const self = this;
    const op = this.ops.remove!;
    return {
      check: () => true,
      toString: () => 'remove()',
      async run(m, real) {
        const exists = m.fields !== null;
        await step(
          self.session,
          real,
          op,
          { method: 'DELETE', url: self.url(op, m.id ?? m.lastId ?? MISSING_ID) },
          {
            kind: 'exact',
            statuses: exists ? [204] : [404],
            why: exists ? 'deleting the own record' : 'deleting an own record that does not exist',
          },
        );
        Object.assign(m, { fields: null, id: null, createdAt: undefined, upload: null, writer: op, tags: [] });
        await self.readMine(m, real, op, 'reading the own record after its delete');
      },
    };
  }

  protected upload(): Cmd {
    const self = this;
    const op = this.ops.file!;
    return {
      check: (m) => m.id !== null || m.lastId !== null,
      toString: () => 'upload()',
      async run(m, real) {
        const has = m.fields !== null && m.upload !== null;
        const exchange = await step(
          self.session,
          real,
          op,
          { method: 'GET', url: self.url(op, m.id ?? m.lastId ?? MISSING_ID) },
          {
            kind: 'exact',
            statuses: has ? [200] : [404],
            why: has ? 'reading the uploaded upload' : 'reading an upload that is not there',
          },
        );
        if (!has || !m.upload) return;
        const r = exchange.response!;
        const type = (r.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        const same = r.body.byteLength === m.upload.bytes.byteLength && r.body.every((b, i) => b === m.upload!.bytes[i]);
        if (!same || type !== m.upload.type)
          disproved(
            real,
            exchange,
            m.writer ?? op,
            `the upload answered (${type}, ${r.body.byteLength} bytes) is not the one uploaded (${m.upload.type}, ${m.upload.bytes.byteLength} bytes)`,
          );
      },
    };
  }

  protected readCmd(): Cmd {
    const self = this;
    return {
      check: () => true,
      toString: () => 'readMine()',
      async run(m, real) {
        await self.readMine(m, real, m.writer ?? self.ops.mine, 'reading the own record');
      },
    };
  }
}
