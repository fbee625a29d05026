/** The brand tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { clearableText, id, text, url } from '../../kernel/schemas.ts';
import type { BrandChanges } from '../services/brands.ts';

export const BrandId = id('brand');

/** A slug is checked against the others of the table (chooseSlug, kernel/slugs.ts), so it goes to the service as given. */
const givenSlug = z.string().nullish();

/** Blank or null clears the logo. */
const logoUrl = z.preprocess((v) => (typeof v === 'string' && !v.trim() ? null : v), url(2000).nullable().optional());

/** Changes: every field optional; null clears an optional one and leaves the name as it is. */
export const BrandUpdate = z.object({
  name: text(100).nullish(),
  slug: givenSlug,
  description: clearableText(2000),
  logoUrl,
}) satisfies z.ZodType<BrandChanges>;

export const NewBrand = BrandUpdate.extend({ name: text(100) }) satisfies z.ZodType<BrandChanges & { name: string }>;
