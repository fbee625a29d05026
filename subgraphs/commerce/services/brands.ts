/** Brands: who makes the products. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import { optionalText, requireText } from '../../kernel/validation.ts';
import { Brand } from '../entities/brand.ts';

export interface BrandInput {
  name?: string | null;
  slug?: string | null;
  description?: string | null;
  logoUrl?: string | null;
}

function url(field: string, value: unknown): string | null {
  const text = optionalText(field, value, 2000);
  if (!text) return null;
  if (!/^https?:\/\/\S+$/i.test(text)) throw badInput(field, 'must be an http(s) URL');
  return text;
}

export async function createBrand(ctx: RequestContext, input: BrandInput) {
  const name = requireText('name', input.name, 100);
  return ctx.transaction(async (tx) => {
    const slug = await chooseSlug(tx, 'commerce.brand', { explicit: input.slug, text: name, fallback: 'item' });
    return tx.em.create(Brand, { id: newId(), name, slug, description: optionalText('description', input.description, 2000) ?? null, logoUrl: url('logoUrl', input.logoUrl) });
  });
}

export async function updateBrand(ctx: RequestContext, brandId: string, input: BrandInput) {
  if (!isUuid(brandId)) throw badInput('brandId', 'must be a brand id');
  return ctx.transaction(async (tx) => {
    const brand = await tx.em.findOne(Brand, { id: brandId });
    if (!brand) throw notFound('Brand');
    if (input.name != null) brand.name = requireText('name', input.name, 100);
    if (input.slug != null) brand.slug = await chooseSlug(tx, 'commerce.brand', { explicit: input.slug, text: brand.name, fallback: 'item', exceptId: brand.id });
    if (input.description !== undefined) brand.description = optionalText('description', input.description, 2000) ?? null;
    if (input.logoUrl !== undefined) brand.logoUrl = url('logoUrl', input.logoUrl);
    return brand;
  });
}

export async function listBrands(ctx: RequestContext, args: { page?: number | null; limit?: number | null; search?: string | null }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('commerce.brand').selectAll().orderBy('name').orderBy('id');
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}
