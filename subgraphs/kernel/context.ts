import DataLoader from 'dataloader';
import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config.ts';
import type { Database } from './database.ts';
import { AppError } from './errors.ts';
import { isUuid } from './ids.ts';
import { resolvePrincipal, type HeaderReader, type Principal } from './principal.ts';

/**
 * What a resolver and a service see of one request: its entity manager (scoped to the caller's
 * company), its principal, and per-request DataLoaders.
 */
export class RequestContext {
  readonly em: EntityManager;
  private resolved?: Promise<Principal>;
  private current?: Principal;
  private readonly loaders = new Map<string, DataLoader<any, any>>();

  constructor(
    readonly db: Database,
    readonly config: Config,
    readonly header: HeaderReader,
  ) {
    this.em = db.orm.em.fork() as EntityManager;
  }

  /** Resolves the principal once and scopes the entity manager to its company. */
  authenticate(): Promise<Principal> {
    this.resolved ??= resolvePrincipal(this.db, this.config.jwtSecret, this.header).then((principal) => {
      this.current = principal;
      if (principal.companyId) this.em.setFilterParams('tenant', { companyId: principal.companyId });
      return principal;
    });
    return this.resolved;
  }

  get principal(): Principal {
    if (!this.current) throw new AppError('INTERNAL', 'Principal used before authentication');
    return this.current;
  }

  /** The caller's company; resolvers that reach here have passed a tenant requirement. */
  get companyId(): string {
    const id = this.principal.companyId;
    if (!id) throw new AppError('INTERNAL', 'No company in this request');
    return id;
  }

  /**
   * A separate view of this request scoped to the company a magic token belongs to (survey
   * invitations name their tenant, not a header). The request's own scope is left untouched, so
   * other fields of the same operation keep the caller's company.
   */
  scopedTo(companyId: string): RequestContext {
    const em = this.db.orm.em.fork() as EntityManager;
    em.setFilterParams('tenant', { companyId });
    return Object.create(this, { em: { value: em }, companyId: { get: () => companyId }, loaders: { value: new Map() } });
  }

  /**
   * This request seen through another entity manager (a transaction's fork): services called
   * inside a transaction take it, so they never touch a second connection (PGlite has one).
   */
  within(em: EntityManager): RequestContext {
    return Object.create(this, { em: { value: em } });
  }

  /**
   * A row of an entity by id, batched with the other lookups of this request into one query
   * (null when absent or another tenant's).
   */
  byId<T extends { id: string }>(entity: EntityName<T>, id: string): Promise<T | null> {
    const name = (entity as { meta?: { className: string } }).meta?.className ?? String((entity as { name?: string }).name);
    return this.loader<string, T | null>(`byId:${name}`, async (ids) => {
      const rows = (await this.em.find(entity, { id: { $in: ids.filter(isUuid) } } as unknown as FilterQuery<T>)) as T[];
      const found = new Map(rows.map((r) => [r.id, r]));
      return ids.map((key) => found.get(key) ?? null);
    }).load(id);
  }

  /** One DataLoader per name and request, so list fields batch their lookups. */
  loader<K, V>(name: string, batch: (keys: readonly K[]) => Promise<(V | Error)[]>): DataLoader<K, V> {
    let loader = this.loaders.get(name);
    if (!loader) {
      loader = new DataLoader<K, V>(batch);
      this.loaders.set(name, loader);
    }
    return loader;
  }
}
