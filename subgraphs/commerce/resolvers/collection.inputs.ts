/** The collection tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { isUuid } from '../../kernel/ids.ts';
import { clearableText, id, text } from '../../kernel/schemas.ts';
import type { CollectionChanges, NewCollection as NewCollectionInput } from '../services/collections.ts';

export const CollectionId = id('collection');

/** Product ids; whether they are this company's products is the service's to check. */
const productIds = () => z.array(z.string()).refine((ids) => ids.every(isUuid), 'must be ids');

/** Products to add or take out: at least one. */
export const ProductIds = productIds().min(1, 'must name at least one product');

/** Changes: absent fields stay as they are; null clears the description and leaves the name as it is. */
export const CollectionUpdate = z.object({
  name: text(100).nullish(),
  // Checked against the table's other slugs by chooseSlug (kernel/slugs.ts): given as it is.
  slug: z.string().nullish(),
  description: clearableText(2000),
}) satisfies z.ZodType<CollectionChanges>;

export const NewCollection = CollectionUpdate.extend({ name: text(100), productIds: productIds().nullish() }) satisfies z.ZodType<NewCollectionInput>;
