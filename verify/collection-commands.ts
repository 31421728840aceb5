/**
 * The commands of the collection model (./collection-model.ts), as fast-check runs them: create
 * (with or without an id, or one that exists), read (a record of the sequence's, or an id no record
 * has), list (whole or by each documented filter), replace (and with another id in its body) and
 * delete. Each checks the status the document gives it now and reads back what it changed; a read
 * that disproves a write blames the write.
 */
import fc from 'fast-check';
import { isRecord, satisfying } from '../openapi-kit/index.ts';
import { bodyJson } from './exchange.ts';
import { CollectionState, isNumericId, type Cmd, type Row } from './collection-state.ts';
import { canonical, disproved, locationProblem, step } from './stateful.ts';

export class CollectionCommands extends CollectionState {
  protected commands(): Array<fc.Arbitrary<Cmd>> {
    const input = this.input()!;
    const idSchema = this.c.read.params.find((p) => p.name === this.c.idParam);
    const newId = idSchema
      ? satisfying(
          this.arbs.valid(idSchema.schema),
          (v): v is string => typeof v === 'string' && this.session.spec.validator.atPointer(idSchema.pointer, v).length === 0,
          `a string id of ${this.c.itemPath} (#${idSchema.pointer})`,
        )
      : fc.constant('verify-1');
    const out: Array<fc.Arbitrary<Cmd>> = [
      input.map((v) => this.create(v, undefined)),
      fc.tuple(input, newId).map(([v, id]) => this.create(v, id)),
      fc.tuple(input, fc.nat()).map(([v, n]) => this.createExisting(v, n)),
      fc.nat().map((n) => this.read(n)),
      newId.map((id) => this.readMissing(id)),
      fc.constant(this.list()),
      fc.tuple(fc.nat(), fc.nat()).map(([n, k]) => this.listFiltered(n, k)),
    ];
    if (this.c.replace) out.push(fc.tuple(fc.nat(), input, fc.boolean()).map(([n, v, withId]) => this.replace(n, v, withId)));
    if (this.c.remove) out.push(fc.nat().map((n) => this.remove(n)));
    return out;
  }

  protected create(value: Row, id: string | undefined): Cmd {
    const self = this;
    return {
      check: () => true,
      toString: () => `create(${canonical(id === undefined ? value : { ...value, [self.c.idField]: id })})`,
      async run(m, real) {
        const sent = id === undefined ? value : { ...value, [self.c.idField]: id };
        const expected = self.createExpectation(m, id);
        const exchange = await step(self.session, real, self.c.create, self.jsonOut(self.c.create, undefined, sent), {
          kind: 'exact',
          ...expected,
        });
        if (exchange.response?.status !== 201) return;
        real.fixtures.track(exchange);
        const body = bodyJson(exchange.response);
        const rawId = isRecord(body) ? body[self.c.idField] : undefined;
        if (typeof rawId !== 'string' && typeof rawId !== 'number')
          disproved(real, exchange, self.c.create, `the 201 body has no ${self.c.idField} (a string or a number)`);
        const newId = String(rawId);
        if (id !== undefined && newId !== id)
          disproved(real, exchange, self.c.create, `the record was created with the id '${newId}', not the '${id}' sent`);
        if (id === undefined && self.c.sequentialIds) {
          const numeric = [...m.records.keys()].filter(isNumericId).map(Number);
          const ok = isNumericId(newId) && !m.records.has(newId) && numeric.every((n) => Number(newId) > n);
          if (!ok)
            disproved(
              real,
              exchange,
              self.c.create,
              `the generated id '${newId}' is not the next numeric id (ids present: ${[...m.records.keys()].join(', ') || 'none'})`,
            );
        }
        const location = locationProblem(exchange, self.itemPath(newId));
        if (location) disproved(real, exchange, self.c.create, location);
        const expectedRecord = { ...value, [self.c.idField]: rawId };
        if (canonical(body) !== canonical(expectedRecord))
          disproved(
            real,
            exchange,
            self.c.create,
            `the 201 body is not the record as sent: sent ${canonical(expectedRecord)}, got ${canonical(body)}`,
          );
        m.records.set(newId, { value: expectedRecord, writer: self.c.create });
        m.owned.push(newId);
        m.deleted.delete(newId);
        // Created: readable by id, and present in the list.
        const back = await self.readBack(real, newId, self.c.create, 'reading the created record back');
        if (back.value === null) disproved(real, back.exchange, self.c.create, `the created record '${newId}' is not readable by id (404)`);
        if (canonical(back.value) !== canonical(expectedRecord))
          disproved(
            real,
            back.exchange,
            self.c.create,
            `GET answers ${canonical(back.value)}, not the record created ${canonical(expectedRecord)}`,
          );
        await self.checkList(m, real);
      },
    };
  }

  protected createExisting(value: Row, n: number): Cmd {
    const self = this;
    return {
      check: (m) => m.records.size > 0,
      toString: () => `createExisting(#${n})`,
      async run(m, real) {
        const ids = [...m.records.keys()];
        const id = ids[n % ids.length]!;
        const exchange = await step(
          self.session,
          real,
          self.c.create,
          self.jsonOut(self.c.create, undefined, { ...value, [self.c.idField]: self.typedId(id) }),
          {
            kind: 'exact',
            ...self.createExpectation(m, id),
          },
        );
        real.fixtures.track(exchange);
      },
    };
  }

  protected read(n: number): Cmd {
    const self = this;
    return {
      check: (m) => m.owned.length > 0,
      toString: () => `read(#${n})`,
      async run(m, real) {
        const id = self.pick(m, n)!;
        const known = m.records.get(id);
        const back = await self.readBack(real, id, known?.writer ?? m.deleted.get(id) ?? self.c.read, `reading '${id}'`);
        if (known) {
          if (back.value === null)
            disproved(real, back.exchange, known.writer, `record '${id}' answers 404 after ${known.writer.id} answered it stored`);
          if (canonical(back.value) !== canonical(known.value))
            disproved(
              real,
              back.exchange,
              known.writer,
              `GET answers ${canonical(back.value)}, not what ${known.writer.id} stored: ${canonical(known.value)}`,
            );
        } else if (back.value !== null) {
          const remover = m.deleted.get(id) ?? self.c.read;
          disproved(real, back.exchange, remover, `record '${id}' is still readable after ${remover.id} answered it deleted`);
        }
      },
    };
  }

  protected readMissing(id: string): Cmd {
    const self = this;
    return {
      check: (m) => !m.records.has(id) && !m.owned.includes(id),
      toString: () => `readMissing(${JSON.stringify(id)})`,
      async run(_m, real) {
        await step(
          self.session,
          real,
          self.c.read,
          { method: 'GET', url: self.url(self.c.read, id) },
          {
            kind: 'exact',
            statuses: [404],
            why: `reading '${id}', which no record has`,
          },
        );
      },
    };
  }

  protected replace(n: number, value: Row, withId: boolean): Cmd {
    const self = this;
    const replaceOp = this.c.replace!;
    return {
      check: (m) => m.owned.length > 0,
      toString: () => `replace(#${n}, ${canonical(value)}${withId ? ', with id' : ''})`,
      async run(m, real) {
        const id = self.pick(m, n)!;
        const present = m.records.has(id);
        const sent = withId ? { ...value, [self.c.idField]: self.typedId(id) } : value;
        const exchange = await step(self.session, real, replaceOp, self.jsonOut(replaceOp, id, sent), {
          kind: 'exact',
          statuses: present ? [200] : [404],
          why: present ? `replacing '${id}'` : `replacing '${id}', which was deleted`,
        });
        if (!present) return;
        const expectedRecord = { ...value, [self.c.idField]: self.typedId(id) };
        const body = bodyJson(exchange.response);
        if (canonical(body) !== canonical(expectedRecord))
          disproved(
            real,
            exchange,
            replaceOp,
            `the 200 body is not the record as replaced: sent ${canonical(expectedRecord)}, got ${canonical(body)}`,
          );
        m.records.set(id, { value: expectedRecord, writer: replaceOp });
        const back = await self.readBack(real, id, replaceOp, 'reading the replaced record back');
        if (back.value === null || canonical(back.value) !== canonical(expectedRecord))
          disproved(
            real,
            back.exchange,
            replaceOp,
            `a GET after the PUT answers ${back.value === null ? '404' : canonical(back.value)}, not what the PUT stored: ${canonical(expectedRecord)}`,
          );
      },
    };
  }

  /** A replace whose body names another id than the URL's (`x-body-id-matches-path`): 400, and the record is as it was. */
  protected replaceWithOtherId(n: number, value: Row, otherId: string): Cmd {
    const self = this;
    const replaceOp = this.c.replace!;
    return {
      check: (m) => m.owned.some((id) => m.records.has(id) && id !== otherId),
      toString: () => `replaceWithOtherId(#${n}, ${JSON.stringify(otherId)})`,
      async run(m, real) {
        const present = m.owned.filter((id) => m.records.has(id) && id !== otherId);
        const id = present[n % present.length]!;
        const known = m.records.get(id)!;
        await step(self.session, real, replaceOp, self.jsonOut(replaceOp, id, { ...value, [self.c.idField]: otherId }), {
          kind: 'exact',
          statuses: [400],
          why: `replacing '${id}' with a body whose ${self.c.idField} is '${otherId}' (x-body-id-matches-path)`,
        });
        const back = await self.readBack(real, id, replaceOp, 'reading the record back after a refused replace');
        if (back.value === null || canonical(back.value) !== canonical(known.value))
          disproved(
            real,
            back.exchange,
            replaceOp,
            `after a replace refused for its body's ${self.c.idField}, GET answers ${back.value === null ? '404' : canonical(back.value)}, not the record as it was: ${canonical(known.value)}`,
          );
      },
    };
  }

  protected remove(n: number): Cmd {
    const self = this;
    const removeOp = this.c.remove!;
    return {
      check: (m) => m.owned.length > 0,
      toString: () => `remove(#${n})`,
      async run(m, real) {
        const id = self.pick(m, n)!;
        const present = m.records.has(id);
        const exchange = await step(
          self.session,
          real,
          removeOp,
          { method: 'DELETE', url: self.url(removeOp, id) },
          {
            kind: 'exact',
            statuses: present ? self.c.removedStatuses : [404],
            why: present ? `deleting '${id}'` : `deleting '${id}' again`,
          },
        );
        if (!present) return;
        real.fixtures.untrack(exchange, id);
        m.records.delete(id);
        m.deleted.set(id, removeOp);
        const back = await self.readBack(real, id, removeOp, 'reading the deleted record back');
        if (back.value !== null)
          disproved(
            real,
            back.exchange,
            removeOp,
            `record '${id}' is still readable after the DELETE answered ${exchange.response?.status}`,
          );
        await self.checkList(m, real);
      },
    };
  }

  protected list(): Cmd {
    const self = this;
    return {
      check: () => true,
      toString: () => 'list()',
      async run(m, real) {
        await self.checkList(m, real);
      },
    };
  }

  protected listFiltered(n: number, k: number): Cmd {
    const self = this;
    return {
      check: (m) => m.owned.some((id) => m.records.has(id)),
      toString: () => `listFiltered(#${n}, param #${k})`,
      async run(m, real) {
        const present = m.owned.filter((id) => m.records.has(id));
        const id = present[n % present.length]!;
        const record = m.records.get(id)!.value;
        // A documented filter on a field the record has, with a value its schema accepts.
        const params = self.c.list.params.filter(
          (p) =>
            p.in === 'query' &&
            record[p.name] !== undefined &&
            record[p.name] !== null &&
            typeof record[p.name] !== 'object' &&
            self.session.spec.validator.atPointer(p.pointer, String(record[p.name])).length === 0,
        );
        if (params.length === 0) return;
        const p = params[k % params.length]!;
        const value = String(record[p.name]);
        const { exchange, rows } = await self.listed(real, [[p.name, value]]);
        if (!rows.some((r) => String(r[self.c.idField]) === id))
          disproved(
            real,
            exchange,
            self.c.list,
            `record '${id}' (${p.name} = ${JSON.stringify(value)}) is missing from the list filtered by ${p.name}`,
          );
        const stray = rows.find((r) => String(r[p.name]) !== value);
        if (stray)
          disproved(
            real,
            exchange,
            self.c.list,
            `the list filtered by ${p.name}=${value} holds a record whose ${p.name} is ${JSON.stringify(stray[p.name])}`,
          );
      },
    };
  }
}
