import type { EntitySchemaWithMeta } from '@mikro-orm/core';
import type { InferKyselyTable } from '@mikro-orm/sql';
import type { Generated, Selectable } from 'kysely';

/**
 * Every table `ctx.query` can name, by its PostgreSQL name (`booking.service`), with its columns by
 * their entity property names (`priceMinor` for `price_minor`). The kernel knows no subgraph's
 * tables: each subgraph adds its own in its `tables.ts`, by declaration merging:
 *
 * ```ts
 * declare module '../kernel/tables.ts' {
 *   interface Tables { 'booking.service': Table<typeof Service> }
 * }
 * ```
 *
 * The column types come from the entity definitions (MikroORM's own inference), so a table and its
 * entity cannot disagree.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the subgraphs' declarations
export interface Tables {}

/**
 * A table's columns, as the entity `E` declares its properties. A tenant table's `companyId` may be
 * left out of an insert: the tenancy plugin gives the row the context's company.
 */
export type Table<E extends EntitySchemaWithMeta> = Columns<InferKyselyTable<E, { columnNamingStrategy: 'property' }>>;

type Columns<T> = T extends { companyId: infer C } ? Omit<T, 'companyId'> & { companyId: Generated<C> } : T;

/** A row of a table as a select of all its columns gives it. */
export type RowOf<T extends keyof Tables> = Selectable<Tables[T]>;
