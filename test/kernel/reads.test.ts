import { describe, expect, it } from 'vitest';
import { Resource } from '../../subgraphs/booking/entities/resource.ts';
import { Service } from '../../subgraphs/booking/entities/service.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { sqlLog } from '../../subgraphs/kernel/database.ts';
import { newId } from '../../subgraphs/kernel/ids.ts';
import { NoTenantError } from '../../subgraphs/kernel/tenancy.ts';
import { testServer } from '../support/server.ts';

/** Plain-row reads (kernel/reads.ts): scoped like em.find, the same values as entities, batched. */

async function runtime() {
  return (await testServer()).app.platform.runtime;
}

/** A company of its own with three resources: A (active), B (inactive), C (active). */
async function company() {
  const rt = await runtime();
  const companyId = newId();
  const ctx = RequestContext.system(rt, companyId);
  const ids = await ctx.transaction(async (tx) =>
    [
      tx.em.create(Resource, { name: 'A room', type: 'room', active: true, createdAt: new Date('2030-01-01T10:00:00Z') }),
      tx.em.create(Resource, { name: 'B chair', type: 'chair', active: false, createdAt: new Date('2030-01-02T10:00:00Z') }),
      tx.em.create(Resource, { name: 'C room', type: 'room', active: true, createdAt: new Date('2030-01-03T10:00:00Z') }),
    ].map((r) => r.id),
  );
  return { rt, companyId, ids, ctx: () => RequestContext.system(rt, companyId) };
}

describe('plain-row reads', () => {
  it('are scoped to the context company like em.find, and fail without one', async () => {
    const a = await company();
    const b = await company();
    expect((await a.ctx().rows(Resource)).map((r) => r.name)).toEqual(expect.arrayContaining(['A room', 'B chair', 'C room']));
    expect(await a.ctx().rows(Resource)).toHaveLength(3);
    // Another company's row by id is not there: null, never the row.
    expect(await a.ctx().row(Resource, { id: b.ids[0] })).toBeNull();
    expect(await a.ctx().byId(Resource, b.ids[0])).toBeNull();
    expect((await a.ctx().byId(Resource, a.ids[0]))?.name).toBe('A room');
    const none = RequestContext.system(a.rt, null);
    await expect(none.rows(Resource)).rejects.toThrow(NoTenantError);
    // Crossing tenants is possible, and says so.
    const across = await none.rows(Resource, { id: { $in: [a.ids[0], b.ids[0]] } }, { filters: { tenant: false } });
    expect(across.map((r) => r.companyId).sort()).toEqual([a.companyId, b.companyId].sort());
  });

  it('give the values an entity has: Dates, numbers, booleans, JSON', async () => {
    const { rt, companyId, ctx } = await company();
    const id = await ctx().transaction(async (tx) =>
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
        cancellationPolicy: { hoursBefore: 24, refundPercent: 50 },
        active: true,
      }).id,
    );
    const row = (await ctx().row(Service, { id }))!;
    const fork = rt.db.orm.em.fork();
    fork.setFilterParams('tenant', { companyId });
    const entity = (await fork.findOne(Service, { id }))!;
    const { companyId: _c, ...plain } = row;
    for (const [key, value] of Object.entries(plain)) expect(value, key).toEqual((entity as any)[key]);
    expect(row.createdAt).toBeInstanceOf(Date);
    expect(row.priceMinor).toBe(4900);
    expect(row.cancellationPolicy).toEqual({ hoursBefore: 24, refundPercent: 50 });
    expect(row.description).toBeNull();
  });

  it('read conditions, order, pages and fields as em.find does', async () => {
    const { ids, ctx } = await company();
    const names = (rows: { name: string }[]) => rows.map((r) => r.name);
    const c = ctx();
    expect(names(await c.rows(Resource, { active: true }, { orderBy: { name: 'desc' } }))).toEqual(['C room', 'A room']);
    expect(names(await c.rows(Resource, { id: { $in: [] } }))).toEqual([]);
    expect(names(await c.rows(Resource, { id: { $nin: [] } }, { orderBy: { name: 'asc' } }))).toEqual(['A room', 'B chair', 'C room']);
    expect(names(await c.rows(Resource, { id: { $nin: [ids[0]] } }, { orderBy: { name: 'asc' } }))).toEqual(['B chair', 'C room']);
    expect(names(await c.rows(Resource, { name: { $ilike: '%ROOM%' }, createdAt: { $gt: new Date('2030-01-02T00:00:00Z') } }))).toEqual(['C room']);
    expect(names(await c.rows(Resource, { $or: [{ type: 'chair' }, { name: 'C room' }] }, { orderBy: { createdAt: 'asc' } }))).toEqual(['B chair', 'C room']);
    expect(names(await c.rows(Resource, { $or: [] }))).toEqual([]);
    expect(names(await c.rows(Resource, { $and: [{ type: 'room' }, { active: { $ne: false } }] }, { orderBy: { name: 'asc' } }))).toEqual(['A room', 'C room']);
    expect(await c.rows(Resource, { type: null })).toEqual([]);
    expect(names(await c.rows(Resource, { type: { $ne: null } }))).toHaveLength(3);
    // A value with the characters SQL and array literals care about is a value, not syntax.
    expect(await c.rows(Resource, { name: { $in: [`it's "quoted" \\ {x}`, 'A room'] } })).toHaveLength(1);
    await expect(c.rows(Resource, { name: undefined })).rejects.toThrow(/undefined/);
    await expect(c.rows(Resource, { nope: 1 } as any)).rejects.toThrow(/no stored property/);

    const page = await c.page(Resource, {}, { page: 2, limit: 2, offset: 2 }, { name: 'asc' });
    expect(names(page.items)).toEqual(['C room']);
    expect(page.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2, hasNextPage: false });
    const past = await c.page(Resource, {}, { page: 5, limit: 2, offset: 8 }, { name: 'asc' });
    expect(past).toMatchObject({ items: [], pagination: { total: 3 } });
    expect(await c.rows(Resource, { id: ids[0] }, { fields: ['name'] })).toEqual([{ name: 'A room' }]);
  });

  it('made in one turn of the event loop travel as one statement; a failing one fails alone', async () => {
    const { ids, ctx } = await company();
    const c = ctx();
    const together = () => Promise.all([c.rows(Resource, { active: true }), c.row(Resource, { id: ids[1] }), c.page(Resource, {}, { page: 1, limit: 1, offset: 0 }, { name: 'asc' })]);
    await together(); // on PGlite, the first run also prepares the statement
    sqlLog.recent = [];
    sqlLog.keep = true;
    try {
      const [active, one, page] = await together();
      expect(active).toHaveLength(2);
      expect(one?.name).toBe('B chair');
      expect(page.pagination.total).toBe(3);
    } finally {
      sqlLog.keep = false;
    }
    expect(sqlLog.recent.filter((s) => !/outbox_message|pgboss/i.test(s))).toHaveLength(1);
    const [bad, good] = await Promise.allSettled([c.rows(Resource, { createdAt: { $gt: 'not a date' } }), c.rows(Resource, { id: ids[2] })]);
    expect(bad.status).toBe('rejected');
    expect(good).toMatchObject({ status: 'fulfilled', value: [{ name: 'C room' }] });
  });

  it('of one shape with different values answer each its own, many at once (each pooled session prepares the shape)', async () => {
    const { ids, ctx } = await company();
    const names = ['A room', 'B chair', 'C room'];
    // Separate contexts: no batching into one statement, so the reads spread over the pool's sessions.
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => ctx().rows(Resource, { id: ids[i % 3] }, { fields: ['name'] })));
    answers.forEach((rows, i) => expect(rows).toEqual([{ name: names[i % 3] }]));
    // A value that looks like a placeholder stays a value.
    expect(await ctx().rows(Resource, { name: 'A room?' })).toEqual([]);
  });

  it('inside a transaction read through it, and see its own writes', async () => {
    const { ctx } = await company();
    const seen = await ctx().transaction(async (tx) => {
      tx.em.create(Resource, { name: 'D desk', type: 'desk', active: true });
      await tx.em.flush();
      return tx.rows(Resource, { type: 'desk' });
    });
    expect(seen.map((r) => r.name)).toEqual(['D desk']);
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
    // Sent while the transaction is open (its batch leaves on the next turn of the event loop).
    const outside = ctx().rows(Resource, { type: 'lamp' });
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    release();
    await expect(open).rejects.toThrow('rolled back');
    expect(await outside).toEqual([]);
    expect(await ctx().rows(Resource, { type: 'lamp' })).toEqual([]);
  });
});
