/** Brands: who makes the products. */
import type { RequestContext } from '../../kernel/context.ts';
import { notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import { Brand } from '../entities/brand.ts';

/** A brand's fields as the edge checked them (resolvers/brand.inputs.ts); on a change, absent means unchanged and null clears an optional one. */
export interface BrandChanges {
  name?: string | null;
  /** As given: chooseSlug checks it and makes it unique; blank makes one from the name. */
  slug?: string | null;
  description?: string | null;
  logoUrl?: string | null;
}

export async function createBrand(ctx: RequestContext, input: BrandChanges & { name: string }) {
  return ctx.transaction(async (tx) => {
    const slug = await chooseSlug(tx, 'commerce.brand', { explicit: input.slug, text: input.name, fallback: 'item' });
    return tx.em.create(Brand, { id: newId(), name: input.name, slug, description: input.description ?? null, logoUrl: input.logoUrl ?? null });
  });
}

export async function updateBrand(ctx: RequestContext, brandId: string, input: BrandChanges) {
  return ctx.transaction(async (tx) => {
    const brand = await tx.em.findOne(Brand, { id: brandId });
    if (!brand) throw notFound('Brand');
    applyChanges(brand, input, { set: ['name'], clearable: ['description', 'logoUrl'] });
    if (input.slug != null)
      brand.slug = await chooseSlug(tx, 'commerce.brand', { explicit: input.slug, text: brand.name, fallback: 'item', exceptId: brand.id });
    return brand;
  });
}

export async function listBrands(ctx: RequestContext, args: { page?: number | null; limit?: number | null; search?: string | null }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('commerce.brand').selectAll().orderBy('name').orderBy('id');
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}

/** A product's brand (batched per response: ctx.find); null without one. */
export async function brandOf(ctx: RequestContext, brandId: string | null | undefined) {
  return brandId ? ctx.find('commerce.brand', brandId) : null;
}
