/** Service categories: the groups of the service catalogue. */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { ServiceCategory } from '../entities/service-category.ts';

export interface NewServiceCategory {
  name: string;
}

export async function createCategory(ctx: RequestContext, input: NewServiceCategory) {
  return ctx.transaction(async (tx) => tx.em.create(ServiceCategory, { id: newId(), name: input.name }));
}

export async function listCategories(ctx: RequestContext) {
  return ctx.all(ctx.query.selectFrom('booking.service_category').selectAll().orderBy('name').orderBy('id'));
}

/** A service's category, batched with the request's other lookups (null when gone). */
export const findCategory = (ctx: RequestContext, categoryId: string): Promise<RowOf<'booking.service_category'> | null> =>
  ctx.find('booking.service_category', categoryId);
