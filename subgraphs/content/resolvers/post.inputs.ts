/** The post tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { clearableText, id, ifGiven, oneOf, slug, text } from '../../kernel/schemas.ts';
import { PUBLISH_STATES } from '../entities/block.ts';
import type { PostChanges, PostFields, PostFilter } from '../services/posts.ts';
import { Blocks } from './block.inputs.ts';

export const PostId = id('post');

/** A post's slug as a storefront or the merchant asks for it. */
export const PostSlug = slug();

/**
 * The type key and the category are checked by the service (this company's post types and
 * categories); the slug, when given, where it is chosen (kernel/slugs.ts).
 */
export const NewPost = z.object({
  type: z.string().nullish(),
  title: text(300),
  slug: z.string().nullish(),
  blocks: Blocks.nullish(),
  categoryId: z.string().nullish(),
  fields: z.record(z.string(), z.unknown()).nullish(),
  excerpt: clearableText(1000),
  status: oneOf(PUBLISH_STATES).nullish(),
}) satisfies z.ZodType<PostFields>;

/** Changes: every field optional; null clears the category and the excerpt and leaves the others as they are. */
export const PostUpdate = NewPost.extend({ title: text(300).nullish() }) satisfies z.ZodType<PostChanges>;

export const PostListFilter = z.object({
  status: oneOf(PUBLISH_STATES).nullish(),
  categoryId: ifGiven(id('category')),
  type: z.string().nullish(),
}) satisfies z.ZodType<PostFilter>;

export const BlockIds = z.array(z.string(), { error: 'must list the block ids' });
