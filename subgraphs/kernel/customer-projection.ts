import type { EntityMetadata, EntityName, MetadataStorage } from '@mikro-orm/core';
import { sql, type AliasableExpression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { RequestContext } from './context.ts';
import { AppError } from './errors.ts';
import type { EventHandler } from './events.ts';
import { backfillFromMembers, customersInMembers, type CustomerIdentity } from './projections.ts';
import { anyOf } from './query.ts';
import type { Runtime } from './runtime.ts';
import type { Tables } from './tables.ts';

/*
 * The customer projection, written once. Commerce, content, loyalty and campaigns each keep a
 * table of their company's customers (subgraphs own their data) and declare which facts it holds;
 * this follows members' events into it, backfills it once, and answers lookups from it.
 *
 * One rule for what has not arrived yet (kernel/projections.ts, decision 0005): nothing waits for
 * an event. A lookup reads the projection once and asks members once, at once, for the ids the
 * projection missed; an id neither has is no customer. The table is written only by members'
 * events, the start-up backfill, and `admit`: a subgraph that writes onto its customers' rows (as
 * campaigns tags them) has members' customers it misses put in first, in its own transaction.
 *
 * Events of one customer may be handled late, repeated or out of order (each event name has its
 * own queue, and a failed one is retried later). Facts older than those held never overwrite
 * newer ones, and facts of a customer members no longer has are not written: an erased customer
 * does not come back when an earlier event of theirs is handled after the erasure.
 */

/** A fact about a customer a projection may keep: members' CustomerFacts, and when the customer was made. */
export type CustomerFact = Exclude<keyof CustomerIdentity, 'customerId' | 'updatedAt'>;

/** The properties every customer projection has besides the facts it keeps (and `companyId`). */
interface ProjectedRow {
  customerId: string;
  updatedAt: Date;
}

/** What a subgraph keeps of members' customers. */
export interface CustomerProjectionDeclaration<T extends ProjectedRow, K extends CustomerFact> {
  /**
   * The subgraph's table: a tenant entity keyed by `companyId` and `customerId`, with `updatedAt`,
   * when the facts it holds were true (an event's occurrence, or the customer's row when copied).
   */
  entity: EntityName<T>;
  /** The facts it keeps, each by the entity's property that holds it (`{ name: 'firstName' }`). */
  keeps: { [F in K]: keyof T & string };
  /** The entity's other columns a new row starts with, as SQL (`{ ordersCount: '0' }`), written into the statements. */
  startsWith?: Partial<Record<keyof T & string, string>>;
  /** What else goes when members erases a customer, in the same transaction (campaigns' suppressions). */
  onErased?: (tx: RequestContext, customerId: string) => Promise<void>;
}

/** A customer of the company as a projection knows them: the id (lower case) and the facts it keeps. */
export type KnownCustomer<K extends CustomerFact> = Pick<CustomerIdentity, 'customerId' | K>;

type CustomerEvent = 'members.customer.created' | 'members.customer.updated' | 'members.customer.deleted';

export interface CustomerProjection<K extends CustomerFact> {
  /**
   * Members' customer events, for the subgraph's subscriptions.ts (`...customers.subscriptions`):
   * created and deleted, and updated when it keeps a fact an update can change.
   */
  readonly subscriptions: { [N in CustomerEvent]?: EventHandler<N> };
  /** Once per database, at start: the customers that existed before the projection did (kernel/projections.ts). */
  backfill(runtime: Runtime): Promise<boolean>;
  /** The customer of the caller's company with this id, or null. */
  find(ctx: RequestContext, customerId: string): Promise<KnownCustomer<K> | null>;
  /** The ids (lower-cased, each once) that are no customer of the caller's company. */
  strangers(ctx: RequestContext, customerIds: readonly string[]): Promise<string[]>;
  /**
   * Inside a transaction, before writing onto the rows of these customers: those members has and
   * the projection has not yet are put in from members' rows, held until the transaction ends (a
   * deletion cannot pass in between; its event takes them out again after). Ids members does not
   * have are left out.
   */
  admit(tx: RequestContext, customerIds: readonly string[]): Promise<void>;
}

/** A fact as members.customer holds it: what the backfill and `admit` copy. */
function inMembers(eb: ExpressionBuilder<Tables, 'members.customer'>, fact: CustomerFact): AliasableExpression<unknown> {
  if (fact === 'emailVerified') return eb('emailVerifiedAt', 'is not', null);
  if (fact === 'phoneVerified') return eb('phoneVerifiedAt', 'is not', null);
  return eb.ref(fact);
}

/** Any projection table, by its name: the declaration names it at run time. */
type Projections = Kysely<Record<string, Record<string, unknown>>>;
const projections = (query: Kysely<Tables>) => query as unknown as Projections;

/** A projection of members' customers into the declared table (see the header). */
export function customerProjection<T extends ProjectedRow, const K extends CustomerFact = never>(
  declaration: CustomerProjectionDeclaration<T, K>,
): CustomerProjection<K> {
  const { entity, keeps, onErased } = declaration;
  const facts = Object.keys(keeps) as K[];
  let described: Table | undefined;
  const tableOf = (metadata: MetadataStorage) => (described ??= describe(metadata.get(entity), declaration));
  const lowered = (ids: readonly string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];
  const known = (customerId: string, entries: [K, unknown][]) => ({ customerId, ...Object.fromEntries(entries) }) as KnownCustomer<K>;
  const starting = Object.entries(declaration.startsWith ?? {}) as [string, string][];
  /** Members' customers (from `select`, scoped or not) into the table, as new rows: the backfill's and `admit`'s copy. */
  const copyFromMembers = (
    query: Kysely<Tables>,
    t: Table,
    narrow: (select: SelectQueryBuilder<Tables, 'members.customer', object>) => SelectQueryBuilder<Tables, 'members.customer', object>,
  ) =>
    projections(query)
      .insertInto(t.name)
      .columns(['companyId', 'customerId', ...t.kept, ...starting.map(([property]) => property), 'updatedAt'])
      .expression(
        narrow(
          query
            .selectFrom('members.customer')
            .select((eb) => [
              'companyId',
              'id',
              ...facts.map((f, i) => inMembers(eb, f).as(`fact${i}`)),
              ...starting.map(([, value], i) => sql.raw(value).as(`start${i}`)),
              'updatedAt',
            ]),
        ),
      )
      .onConflict((oc) => oc.columns(['companyId', 'customerId']).doNothing())
      .execute();

  /** Members' facts of a customer, as an event tells them: kept unless older than those held, and only while members has the customer. */
  const remember: EventHandler<'members.customer.created' | 'members.customer.updated'> = async (tx, event) => {
    const t = tableOf(tx.em.getMetadata());
    const customerId = event.payload.customerId.toLowerCase();
    // Held until this transaction ends: members' deletion of the customer, and so its event, comes after.
    const present = await tx.query.selectFrom('members.customer').select('id').where('id', '=', customerId).forKeyShare().executeTakeFirst();
    if (!present) return;
    const at = new Date(event.occurredAt);
    // Events tell no creation time: the customer's first event is when they were made.
    const values = Object.fromEntries(facts.map((f, i) => [t.kept[i], f === 'createdAt' ? at : event.payload[f as Exclude<K, 'createdAt'>]]));
    await projections(tx.query)
      .insertInto(t.name)
      .values({ customerId, ...values, ...Object.fromEntries(starting.map(([property, value]) => [property, sql.raw(value)])), updatedAt: at })
      .onConflict((oc) =>
        oc
          .columns(['companyId', 'customerId'])
          .doUpdateSet((eb) => Object.fromEntries([...t.refreshed, 'updatedAt'].map((property) => [property, eb.ref(`excluded.${property}`)])))
          .where((eb) => eb(eb.ref(`${t.name}.updatedAt`), '<=', eb.ref('excluded.updatedAt'))),
      )
      .execute();
  };

  /** The customers of the caller's company among these ids, by lower-cased id: the projection, then members for what it missed. */
  const findAll = async (ctx: RequestContext, customerIds: readonly string[]) => {
    const ids = lowered(customerIds);
    const found = new Map<string, KnownCustomer<K>>();
    if (!ids.length) return found;
    const t = tableOf(ctx.em.getMetadata());
    const rows = await ctx.all(
      projections(ctx.query)
        .selectFrom(t.name)
        .select(['customerId', ...t.kept])
        .where('customerId', '=', anyOf(ids)),
    );
    for (const row of rows) {
      const customerId = String(row.customerId).toLowerCase();
      found.set(
        customerId,
        known(
          customerId,
          facts.map((f, i) => [f, row[t.kept[i]] ?? null]),
        ),
      );
    }
    // Missed: a customer made a moment ago whose event has not arrived yet, or none. Members answers at once.
    const missing = ids.filter((id) => !found.has(id));
    for (const member of missing.length ? await customersInMembers(ctx, missing) : []) {
      found.set(
        member.customerId,
        known(
          member.customerId,
          facts.map((f) => [f, member[f]]),
        ),
      );
    }
    return found;
  };

  return {
    subscriptions: {
      'members.customer.created': remember,
      ...(facts.some((f) => f !== 'createdAt') ? { 'members.customer.updated': remember } : {}),
      'members.customer.deleted': async (tx, event) => {
        const customerId = event.payload.customerId.toLowerCase();
        await projections(tx.query).deleteFrom(tableOf(tx.em.getMetadata()).name).where('customerId', '=', customerId).execute();
        await onErased?.(tx, customerId);
      },
    },

    backfill: (runtime) => {
      const t = tableOf(runtime.db.orm.getMetadata());
      return backfillFromMembers(runtime, t.schema, t.table, (query) => copyFromMembers(query, t, (select) => select));
    },

    find: async (ctx, customerId) => (await findAll(ctx, [customerId])).get(customerId.toLowerCase()) ?? null,
    strangers: async (ctx, customerIds) => {
      const customers = await findAll(ctx, customerIds);
      return lowered(customerIds).filter((id) => !customers.has(id));
    },

    admit: async (tx, customerIds) => {
      if (!tx.inTransaction) throw new AppError('INTERNAL', 'admit holds members rows until the transaction ends: call it inside one');
      const ids = lowered(customerIds);
      if (!ids.length) return;
      const t = tableOf(tx.em.getMetadata());
      const present = await tx.all(projections(tx.query).selectFrom(t.name).select('customerId').where('customerId', '=', anyOf(ids)));
      const projected = new Set(present.map((r) => String(r.customerId).toLowerCase()));
      const missing = ids.filter((id) => !projected.has(id));
      if (!missing.length) return;
      await copyFromMembers(tx.query, t, (select) => select.where('id', '=', anyOf(missing)).forKeyShare());
    },
  };
}

/** The declared table: its name and the properties the statements above use. */
interface Table {
  schema: string;
  table: string;
  /** `schema.table`. */
  name: string;
  /** The properties holding the kept facts, in the declaration's order. */
  kept: string[];
  /** Those newer facts replace: all kept but when the customer was made. */
  refreshed: string[];
}

function describe<T extends ProjectedRow, K extends CustomerFact>(meta: EntityMetadata<T>, declaration: CustomerProjectionDeclaration<T, K>): Table {
  const properties = meta.properties as Record<string, unknown>;
  const facts = Object.keys(declaration.keeps) as K[];
  const kept = facts.map((f) => declaration.keeps[f]);
  for (const property of ['companyId', 'customerId', 'updatedAt', ...kept, ...Object.keys(declaration.startsWith ?? {})]) {
    if (!properties[property]) throw new Error(`${meta.className} has no property "${property}"`);
  }
  return {
    schema: meta.schema!,
    table: meta.tableName,
    name: `${meta.schema}.${meta.tableName}`,
    kept,
    refreshed: kept.filter((_, i) => facts[i] !== 'createdAt'),
  };
}
