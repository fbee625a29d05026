/** Service categories: the groups of the service catalogue. */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { requireText } from '../../kernel/validation.ts';
import { ServiceCategory } from '../entities/service-category.ts';

export async function createCategory(ctx: RequestContext, name: unknown) {
  const value = requireText('name', name, 100);
  return ctx.transaction(async (tx) => tx.em.create(ServiceCategory, { id: newId(), name: value }));
}

export async function listCategories(ctx: RequestContext) {
  return ctx.all(ctx.query.selectFrom('booking.service_category').selectAll().orderBy('name').orderBy('id'));
}
