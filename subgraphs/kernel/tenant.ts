import type { RequestContext } from './context.ts';
import { notFound } from './errors.ts';

export interface TenantSettings {
  companyId: string;
  name: string;
  timeZone: string;
  currency: string;
  /** Where messages for the business go (new inquiries). */
  ownerEmail: string;
}

/**
 * The caller's company settings every domain needs (time zone for dates, currency for prices),
 * read by the kernel from members' company table (read only, like the principal) and cached
 * briefly; members clears the cache when settings change.
 */
const TTL_MS = 5000;
const cache = new Map<string, { at: number; settings: Promise<TenantSettings> }>();

export function invalidateTenantSettings(companyId?: string): void {
  if (companyId) cache.delete(companyId);
  else cache.clear();
}

export function tenantSettings(ctx: RequestContext): Promise<TenantSettings> {
  const companyId = ctx.companyId;
  const hit = cache.get(companyId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.settings;
  // Through the context's connection: inside a transaction, that transaction (PGlite has one connection).
  const settings = ctx.query
    .selectFrom('members.company')
    .select(['id', 'name', 'timeZone', 'currency', 'ownerEmail'])
    .where('id', '=', companyId)
    .executeTakeFirst()
    .then((row) => {
      if (!row) throw notFound('Company');
      return { companyId: row.id, name: row.name, timeZone: row.timeZone, currency: row.currency.trim(), ownerEmail: row.ownerEmail };
    });
  cache.set(companyId, { at: Date.now(), settings });
  settings.catch(() => cache.delete(companyId));
  return settings;
}
