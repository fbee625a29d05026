import type { EntityMetadata, EntityName, MetadataStorage } from '@mikro-orm/core';
import type { RequestContext } from './context.ts';
import { AppError } from './errors.ts';
import type { EventHandler } from './events.ts';
import { backfillFromMembers, customersInMembers, type CustomerIdentity } from './projections.ts';
import type { Row, Where } from './reads.ts';
import type { Runtime } from './runtime.ts';
import { COMPANY } from './tenancy.ts';

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
  keeps: { [F in K]: keyof Row<T> & string };
  /** The entity's other columns a new row starts with, as SQL (`{ ordersCount: '0' }`). */
  startsWith?: Partial<Record<keyof Row<T> & string, string>>;
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

/** Where members keeps each fact: what the backfill and `admit` copy from `members.customer`. */
const IN_MEMBERS: Record<CustomerFact, string> = {
  name: 'name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
  emailVerified: 'email_verified_at is not null',
  phoneVerified: 'phone_verified_at is not null',
  createdAt: 'created_at',
};

/** A projection of members' customers into the declared table (see the header). */
export function customerProjection<T extends ProjectedRow, const K extends CustomerFact = never>(declaration: CustomerProjectionDeclaration<T, K>): CustomerProjection<K> {
  const { entity, keeps, onErased } = declaration;
  const facts = Object.keys(keeps) as K[];
  let described: Table | undefined;
  const tableOf = (metadata: MetadataStorage) => (described ??= describe(metadata.get(entity), declaration));
  const lowered = (ids: readonly string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];
  const known = (customerId: string, entries: [K, unknown][]) => ({ customerId, ...Object.fromEntries(entries) }) as KnownCustomer<K>;

  /** Members' facts of a customer, as an event tells them: kept unless older than those held, and only while members has the customer. */
  const remember: EventHandler<'members.customer.created' | 'members.customer.updated'> = async (tx, event) => {
    const t = tableOf(tx.em.getMetadata());
    const customerId = event.payload.customerId.toLowerCase();
    // Held until this transaction ends: members' deletion of the customer, and so its event, comes after.
    const [present] = await tx.tenantSql`select 1 from members.customer where company_id = ${COMPANY} and id = ${customerId} for key share`;
    if (!present) return;
    const at = new Date(event.occurredAt);
    // Events tell no creation time: the customer's first event is when they were made.
    const values = facts.map((f) => (f === 'createdAt' ? at : event.payload[f as Exclude<K, 'createdAt'>]));
    await statement(tx)`insert into ${t.name} as p (company_id, customer_id${t.columns}, ${t.updatedAt})
      values (${COMPANY}, ${customerId}${new Values(values)}${t.starting}, ${at})
      on conflict (company_id, customer_id) do update set ${t.refreshed} where p.${t.updatedAt} <= excluded.${t.updatedAt}`;
  };

  /** The customers of the caller's company among these ids, by lower-cased id: the projection, then members for what it missed. */
  const findAll = async (ctx: RequestContext, customerIds: readonly string[]) => {
    const ids = lowered(customerIds);
    const found = new Map<string, KnownCustomer<K>>();
    if (!ids.length) return found;
    const fields = ['customerId', ...facts.map((f) => keeps[f])] as (keyof Row<T>)[];
    const rows = (await ctx.rows(entity, { customerId: { $in: ids } } as Where<T>, { fields })) as unknown as Record<string, unknown>[];
    for (const row of rows) {
      const customerId = String(row.customerId).toLowerCase();
      found.set(customerId, known(customerId, facts.map((f) => [f, row[keeps[f]] ?? null])));
    }
    // Missed: a customer made a moment ago whose event has not arrived yet, or none. Members answers at once.
    const missing = ids.filter((id) => !found.has(id));
    for (const member of missing.length ? await customersInMembers(ctx, missing) : []) {
      found.set(member.customerId, known(member.customerId, facts.map((f) => [f, member[f]])));
    }
    return found;
  };

  return {
    subscriptions: {
      'members.customer.created': remember,
      ...(facts.some((f) => f !== 'createdAt') ? { 'members.customer.updated': remember } : {}),
      'members.customer.deleted': async (tx, event) => {
        const customerId = event.payload.customerId.toLowerCase();
        await statement(tx)`delete from ${tableOf(tx.em.getMetadata()).name} where company_id = ${COMPANY} and customer_id = ${customerId}`;
        await onErased?.(tx, customerId);
      },
    },

    backfill: (runtime) => {
      const t = tableOf(runtime.db.orm.getMetadata());
      return backfillFromMembers(
        runtime,
        t.schema,
        t.table,
        `insert into ${t.name.sql} (company_id, customer_id${t.columns.sql}, ${t.updatedAt.sql})
         select company_id, id${t.fromMembers.sql}, updated_at from members.customer
         on conflict (company_id, customer_id) do nothing`,
      );
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
      const present = (await tx.rows(entity, { customerId: { $in: ids } } as Where<T>, { fields: ['customerId'] as (keyof Row<T>)[] })) as unknown as ProjectedRow[];
      const projected = new Set(present.map((r) => r.customerId.toLowerCase()));
      const missing = ids.filter((id) => !projected.has(id));
      if (!missing.length) return;
      await statement(tx)`insert into ${t.name} (company_id, customer_id${t.columns}, ${t.updatedAt})
        select company_id, id${t.fromMembers}, updated_at from members.customer
        where company_id = ${COMPANY} and id in (${missing}) for key share
        on conflict (company_id, customer_id) do nothing`;
    },
  };
}

/** SQL text from a declaration (a table, its columns), written into a statement rather than passed as a value. */
class Sql {
  constructor(readonly sql: string) {}
}

/** Values written as `, ?, ?` (each a parameter); none: nothing. */
class Values {
  constructor(readonly values: unknown[]) {}
}

/** The declared table as SQL: its name and the column lists the statements above use. */
interface Table {
  schema: string;
  table: string;
  name: Sql;
  updatedAt: Sql;
  /** `, col, …`: the kept facts' columns in the declaration's order, then those a new row starts with. */
  columns: Sql;
  /** `, sql, …`: what a new row starts with, in the same order. */
  starting: Sql;
  /** `, sql, …`: the kept facts as members.customer holds them, then what a new row starts with. */
  fromMembers: Sql;
  /** `col = excluded.col, …`: what newer facts replace (all kept but when the customer was made, and updated_at). */
  refreshed: Sql;
}

function describe<T extends ProjectedRow, K extends CustomerFact>(meta: EntityMetadata<T>, declaration: CustomerProjectionDeclaration<T, K>): Table {
  const column = (property: string) => {
    const fieldNames = (meta.properties as Record<string, { fieldNames?: string[] } | undefined>)[property]?.fieldNames;
    if (fieldNames?.length !== 1) throw new Error(`${meta.className} has no column for "${property}"`);
    return quote(fieldNames[0]);
  };
  for (const key of ['companyId', 'customerId']) column(key);
  const facts = Object.keys(declaration.keeps) as K[];
  const kept = facts.map((f) => column(declaration.keeps[f]));
  const starting = Object.entries(declaration.startsWith ?? {}) as [string, string][];
  const updatedAt = column('updatedAt');
  const list = (items: string[]) => items.map((item) => `, ${item}`).join('');
  return {
    schema: meta.schema!,
    table: meta.tableName,
    name: new Sql(`${quote(meta.schema!)}.${quote(meta.tableName)}`),
    updatedAt: new Sql(updatedAt),
    columns: new Sql(list([...kept, ...starting.map(([property]) => column(property))])),
    starting: new Sql(list(starting.map(([, sql]) => sql))),
    fromMembers: new Sql(list([...facts.map((f) => IN_MEMBERS[f]), ...starting.map(([, sql]) => sql)])),
    refreshed: new Sql([...kept.filter((_, i) => facts[i] !== 'createdAt'), updatedAt].map((c) => `${c} = excluded.${c}`).join(', ')),
  };
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * `ctx.tenantSql` with a declaration's table and columns (`Sql`) written into the text, and a
 * `Values` list written as one parameter each; every other value is a parameter as usual.
 */
function statement(ctx: RequestContext) {
  return <R = unknown>(strings: TemplateStringsArray, ...values: unknown[]): Promise<R[]> => {
    const parts = [strings[0]];
    const params: unknown[] = [];
    values.forEach((value, i) => {
      if (value instanceof Sql) parts[parts.length - 1] += value.sql;
      else if (value instanceof Values) {
        for (const v of value.values) {
          parts[parts.length - 1] += ', ';
          params.push(v);
          parts.push('');
        }
      } else {
        params.push(value);
        parts.push('');
      }
      parts[parts.length - 1] += strings[i + 1];
    });
    return ctx.tenantSql<R>(Object.assign(parts, { raw: [...parts] }) as unknown as TemplateStringsArray, ...params);
  };
}
