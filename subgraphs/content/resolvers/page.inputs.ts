/** The page tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { clearableText, id, oneOf, slug, text } from '../../kernel/schemas.ts';
import { PUBLISH_STATES } from '../entities/block.ts';
import type { PageChanges, PageFields } from '../services/pages.ts';
import { Blocks } from './block.inputs.ts';

export const PageId = id('page');

/** A page's slug as a storefront asks for it. */
export const PageSlug = slug();

/** The slug, when given, is checked where it is chosen (kernel/slugs.ts: format, then whether it is free). */
export const NewPage = z.object({
  title: text(300),
  slug: z.string().nullish(),
  blocks: Blocks.nullish(),
  status: oneOf(PUBLISH_STATES).nullish(),
  seoTitle: clearableText(200),
  seoDescription: clearableText(500),
}) satisfies z.ZodType<PageFields>;

/** Changes: every field optional; null clears the search-engine texts and leaves the others as they are. */
export const PageUpdate = NewPage.extend({ title: text(300).nullish() }) satisfies z.ZodType<PageChanges>;
