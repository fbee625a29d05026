import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import '../../subgraphs/booking/tables.ts';
import { Resource } from '../../subgraphs/booking/entities/resource.ts';
import { Service } from '../../subgraphs/booking/entities/service.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { sqlLog } from '../../subgraphs/kernel/database.ts';
import { newId } from '../../subgraphs/kernel/ids.ts';
import { anyOf } from '../../subgraphs/kernel/query.ts';
import { NoTenantError } from '../../subgraphs/kernel/tenancy.ts';
import { testServer } from '../support/server.ts';

/** `ctx.query` (kernel/query.ts): every statement scoped to the context's company, rows with the entities' values. */

async function company() {
  const rt = (await testServer()).app.platform.runtime;
  const companyId = newId();
  const ctx = () => RequestContext.system(rt, companyId);
  const ids = await ctx().transaction(async (tx) =>
    [
      tx.em.create(Resource, { name: 'A room', type: 'room', active: true, createdAt: new Date('2030-01-01T10:00:00Z') }),
      tx.em.create(Resource, { name: 'B chair', type: 'chair', active: false, createdAt: new Date('2030-01-02T10:00:00Z') }),
      tx.em.create(Resource, { name: 'C room', type: 'room', active: true, createdAt: new Date('2030-01-03T10:00:00Z') }),
    ].map((r) => r.id),
  );
  return { rt, companyId, ids, ctx };
}

const names = (rows: { name: string }[]) => rows.map((r) => r.name);

describe('ctx.query', () => {
  it('limits every tenant table a statement names to the company: from, joins, subqueries, update, delete', async () => {
    const a = await company();
    const b = await company();
    const q = a.ctx().query;
    expect(names(await a.ctx().all(q.selectFrom('booking.resource').select('name').orderBy('name')))).toEqual(['A room', 'B chair', 'C room']);
    // Another company's row by id is not there.
    expect(await a.ctx().first(q.selectFrom('booking.resource').selectAll().where('id', '=', b.ids[0]))).toBeNull();
    expect(await a.ctx().find('booking.resource', b.ids[0])).toBeNull();
    expect((await a.ctx().find('booking.resource', a.ids[0]))?.name).toBe('A room');
    // A left join keeps the row and finds nothing of the other company; a subquery is scoped too.
    const joined = await a.ctx().all(
      q
        .selectFrom('booking.resource as r')
        .leftJoin('booking.resource as other', (j) => j.on('other.id', '=', b.ids[0]))
        .select(['r.name', 'other.name as otherName'])
        .where('r.id', '=', a.ids[0]),
    );
    expect(joined).toEqual([{ name: 'A room', otherName: null }]);
    const counted = await a.ctx().first(
      q.selectNoFrom((eb) =>
        eb
          .selectFrom('booking.resource')
          .select((e) => e.fn.countAll<string>().as('n'))
          .as('n'),
      ),
    );
    expect(Number(counted?.n)).toBe(3);
    // Writes: an update or delete of the other company's row touches nothing.
    const updated = await a
      .ctx()
      .transaction((tx) => tx.query.updateTable('booking.resource').set({ name: 'taken' }).where('id', '=', b.ids[0]).executeTakeFirst());
    expect(Number(updated.numUpdatedRows)).toBe(0);
    const deleted = await a.ctx().transaction((tx) => tx.query.deleteFrom('booking.resource').where('id', '=', anyOf(b.ids)).executeTakeFirst());
    expect(Number(deleted.numDeletedRows)).toBe(0);
    expect(await b.ctx().all(b.ctx().query.selectFrom('booking.resource').select('name').orderBy('name'))).toHaveLength(3);
  });

  it('gives an inserted row the company, and refuses another company or none', async () => {
    const a = await company();
    const id = newId();
    const now = new Date();
    await a
      .ctx()
      .transaction((tx) => tx.query.insertInto('booking.resource').values({ id, name: 'D desk', type: 'desk', active: true, createdAt: now }).execute());
    expect((await a.ctx().find('booking.resource', id))?.companyId).toBe(a.companyId);
    await expect(
      a
        .ctx()
        .transaction((tx) =>
          tx.query.insertInto('booking.resource').values({ id: newId(), companyId: newId(), name: 'E', type: 'x', active: true, createdAt: now }).execute(),
        ),
    ).rejects.toThrow(/another company/);
    const none = RequestContext.system(a.rt, null);
    await expect(none.all(none.query.selectFrom('booking.resource').selectAll())).rejects.toThrow(NoTenantError);
  });

  it('gives the values an entity has: Dates, numbers, booleans, JSON with its own keys', async () => {
    const { ctx } = await company();
    const id = await ctx().transaction(
      async (tx) =>
        tx.em.create(Service, {
          name: 'Cut',
          durationMinutes: 30,
          priceMinor: 4900,
          currency: 'EUR',
          capacity: 1,
          requiresStaff: false,
          requiresResource: false,
          bufferBeforeMinutes: 0,
          bufferAfterMinutes: 5,
          minimumNoticeMinutes: 60,
          bookingHorizonDays: 30,
          cancellationPolicy: { hoursBefore: 24, refundPercent: 50, description: 'snake_case_kept' },
          active: true,
        }).id,
    );
    const c = ctx();
    const row = (await c.first(c.query.selectFrom('booking.service').selectAll().where('id', '=', id)))!;
    expect(row.createdAt).toBeInstanceOf(Date);
    expect(row.priceMinor).toBe(4900);
    expect(row.requiresStaff).toBe(false);
    expect(row.cancellationPolicy).toEqual({ hoursBefore: 24, refundPercent: 50, description: 'snake_case_kept' });
    expect(row.description).toBeNull();
    // The same through a transaction's own execute, and for an aggregate of a timestamp.
    const inTx = await c.transaction((tx) =>
      tx.query
        .selectFrom('booking.service as s')
        .select(['s.createdAt', (e) => e.fn.max('s.updatedAt').as('lastChange')])
        .groupBy('s.createdAt')
        .execute(),
    );
    expect(inTx[0].createdAt).toBeInstanceOf(Date);
    expect(inTx[0].lastChange).toBeInstanceOf(Date);
    expect(inTx[0].createdAt.getTime()).toBe(row.createdAt.getTime());
  });

  it('pages with the total of all rows, in one statement with the other reads of the turn; a failing read fails alone', async () => {
    const { ids, ctx } = await company();
    const c = ctx();
    const q = c.query.selectFrom('booking.resource').select(['id', 'name']);
    const together = () =>
      Promise.all([c.all(q.where('active', '=', true)), c.find('booking.resource', ids[1]), c.page(q.orderBy('name'), { page: 2, limit: 2, offset: 2 })]);
    await together();
    sqlLog.recent = [];
    sqlLog.keep = true;
    let answers;
    try {
      answers = await together();
    } finally {
      sqlLog.keep = false;
    }
    expect(sqlLog.recent.filter((s) => !/outbox_message|pgboss/i.test(s))).toHaveLength(1);
    const [active, one, page] = answers;
    expect(active).toHaveLength(2);
    expect(one?.name).toBe('B chair');
    expect(names(page.items)).toEqual(['C room']);
    expect(page.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2, hasNextPage: false });
    // A value with the characters SQL and array literals care about is a value, not syntax.
    expect(await c.all(q.where('name', '=', anyOf([`it's "quoted" \\ {x}`, 'A room'])))).toHaveLength(1);
    expect(await c.all(q.where('name', '=', anyOf([])))).toEqual([]);
    const [bad, good] = await Promise.allSettled([c.all(q.where(sql`created_at`, '>', 'not a date')), c.all(q.where('id', '=', ids[2]))]);
    expect(bad.status).toBe('rejected');
    expect(good).toMatchObject({ status: 'fulfilled', value: [{ name: 'C room' }] });
  });

  it('of one shape with different values answer each its own, many at once (each pooled session prepares the shape)', async () => {
    const { ids, ctx } = await company();
    const names = ['A room', 'B chair', 'C room'];
    // Separate contexts: no batching into one statement, so the reads spread over the pool's sessions.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        ctx().all(
          ctx()
            .query.selectFrom('booking.resource')
            .select('name')
            .where('id', '=', ids[i % 3]),
        ),
      ),
    );
    answers.forEach((rows, i) => expect(rows).toEqual([{ name: names[i % 3] }]));
    // A value that looks like a placeholder stays a value.
    expect(await ctx().all(ctx().query.selectFrom('booking.resource').select('name').where('name', '=', 'A room $1'))).toEqual([]);
  });

  it('inside a transaction read through it, and see its own writes', async () => {
    const { ctx } = await company();
    const seen = await ctx().transaction(async (tx) => {
      tx.em.create(Resource, { name: 'D desk', type: 'desk', active: true });
      await tx.em.flush();
      return tx.all(tx.query.selectFrom('booking.resource').select('name').where('type', '=', 'desk'));
    });
    expect(seen).toEqual([{ name: 'D desk' }]);
  });

  it("outside a transaction never see another one's writes before it commits", async () => {
    const { ctx } = await company();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let written!: () => void;
    const wrote = new Promise<void>((r) => (written = r));
    const open = ctx().transaction(async (tx) => {
      tx.em.create(Resource, { name: 'E lamp', type: 'lamp', active: true });
      await tx.em.flush();
      written();
      await gate;
      throw new Error('rolled back');
    });
    await wrote;
    const lamps = () => ctx().all(ctx().query.selectFrom('booking.resource').select('name').where('type', '=', 'lamp'));
    // Sent while the transaction is open (its batch leaves on the next turn of the event loop).
    const outside = lamps();
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    release();
    await expect(open).rejects.toThrow('rolled back');
    expect(await outside).toEqual([]);
    expect(await lamps()).toEqual([]);
  });
});
