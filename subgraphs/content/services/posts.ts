/** Posts: create and edit (fields, and blocks under a row lock), find and list. */
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { requireOwn } from '../../kernel/ownership.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { parseDate } from '../../kernel/time.ts';
import type { Block, PublishState } from '../entities/block.ts';
import { Post } from '../entities/post.ts';
import { blockData, newBlock, type BlockContent, type BlockType } from './blocks.ts';
import { DEFAULT_TYPE, fieldsOfTypes, resolveType } from './post-types.ts';
import { flushWithSlug } from './slugs.ts';
import { publishStates } from './states.ts';

export type PostRow = RowOf<'content.post'>;

/** Field values checked against the post type: known keys, right types, required ones present. */
function validateFields(
  defs: RowOf<'content.post_type_field'>[],
  values: Record<string, unknown>,
  partialOf?: Record<string, unknown>,
): Record<string, unknown> {
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const out: Record<string, unknown> = { ...(partialOf ?? {}) };
  for (const [key, value] of Object.entries(values)) {
    const def = byKey.get(key);
    const at = `fields.${key}`;
    if (!def) throw badInput(at, 'is not a field of this post type');
    if (value === null) {
      delete out[key];
      continue;
    }
    const ok =
      def.fieldType === 'number'
        ? typeof value === 'number' && Number.isFinite(value)
        : def.fieldType === 'boolean'
          ? typeof value === 'boolean'
          : typeof value === 'string';
    if (!ok) throw badInput(at, `must be a ${def.fieldType === 'number' ? 'number' : def.fieldType === 'boolean' ? 'boolean' : 'string'}`);
    if (def.fieldType === 'date') parseDate(at, value);
    if ((def.fieldType === 'url' || def.fieldType === 'image') && !/^(https?:\/\/|\/)/.test(value as string))
      throw badInput(at, 'must be an http(s) URL or a path');
    if (def.fieldType === 'select' && !def.options?.includes(value as string)) throw badInput(at, `must be one of ${def.options?.join(', ')}`);
    out[key] = value;
  }
  for (const def of defs)
    if (def.required && (!Object.hasOwn(out, def.key) || out[def.key] === undefined || out[def.key] === '')) throw badInput(`fields.${def.key}`, 'is required');
  return out;
}

const checkCategory = (ctx: RequestContext, categoryId: string | null | undefined) =>
  categoryId == null ? null : requireOwn(ctx, 'content.category', 'categoryId', categoryId, 'a content category');

/** A post's fields as the edge checked them (resolvers/post.inputs.ts); on a change, absent means unchanged. */
export interface PostChanges {
  /** The post type key (a new post only; default "post"). */
  type?: string | null;
  title?: string | null;
  slug?: string | null;
  /** The whole content, in order (replaces the blocks). */
  blocks?: BlockContent[] | null;
  /** Checked here: a content category of this company. */
  categoryId?: string | null;
  /** Checked here, against the post type's fields; on a change, null removes a value. */
  fields?: Record<string, unknown> | null;
  excerpt?: string | null;
  status?: PublishState | null;
}

/** A new post: a title at least. */
export interface PostFields extends PostChanges {
  title: string;
}

/** Which posts a merchant lists (besides page and search). */
export interface PostFilter {
  status?: PublishState | null;
  categoryId?: string | null;
  type?: string | null;
}

/** A new post is a draft unless asked otherwise; its slug comes from the title when not given. */
export async function createPost(ctx: RequestContext, input: PostFields) {
  const { title } = input;
  return ctx.transaction(async (tx) => {
    const type = await resolveType(tx, input.type);
    const [defs] = await fieldsOfTypes(tx, [type.id]);
    const fields = validateFields(defs, input.fields ?? {});
    const categoryId = await checkCategory(tx, input.categoryId);
    const status = input.status ?? 'draft';
    const slug = await chooseSlug(tx, 'content.post', { explicit: input.slug, text: title, fallback: 'untitled' });
    const post = tx.em.create(Post, {
      id: newId(),
      postTypeId: type.id,
      title,
      slug,
      status,
      categoryId,
      fields,
      blocks: (input.blocks ?? []).map(newBlock),
      excerpt: input.excerpt ?? null,
      publishedAt: status === 'published' ? tx.now() : null,
    });
    await flushWithSlug(tx, 'content.post', post, { explicit: input.slug, title });
    return post;
  });
}

export async function updatePost(ctx: RequestContext, postId: string, input: PostChanges) {
  return editPost(ctx, postId, async (post, tx) => {
    applyChanges(post, input, { set: ['title'], clearable: ['excerpt'] });
    if (input.slug != null)
      post.slug = await chooseSlug(tx, 'content.post', { explicit: input.slug, text: post.title, fallback: 'untitled', exceptId: post.id });
    if (input.categoryId !== undefined) post.categoryId = await checkCategory(tx, input.categoryId);
    if (input.blocks != null) post.blocks = input.blocks.map(newBlock);
    if (input.fields != null) {
      const [defs] = await fieldsOfTypes(tx, [post.postTypeId]);
      post.fields = validateFields(defs, input.fields, post.fields);
    }
    if (input.status != null && input.status !== post.status) {
      publishStates.assert(post.status, input.status);
      if (input.status === 'published') post.publishedAt = tx.now();
      post.status = input.status;
    }
  });
}

/**
 * Block edits read and write the post under a row lock, so concurrent edits of one post apply one
 * after the other instead of losing each other's blocks.
 */
async function editPost(ctx: RequestContext, postId: string, change: (post: Post, tx: RequestContext) => Promise<void> | void): Promise<PostRow> {
  await ctx.transaction(async (tx) => {
    const post = await tx.em.findOne(Post, { id: postId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!post) throw notFound('Post');
    await change(post, tx);
  });
  const post = await ctx.first(ctx.query.selectFrom('content.post').selectAll().where('id', '=', postId));
  if (!post) throw notFound('Post');
  return post;
}

export async function appendBlock(ctx: RequestContext, postId: string, block: BlockContent) {
  return editPost(ctx, postId, (post) => {
    post.blocks = [...post.blocks, newBlock(block)];
  });
}

export async function reorderBlocks(ctx: RequestContext, postId: string, blockIds: string[]) {
  return editPost(ctx, postId, (post) => {
    const current = new Map(post.blocks.map((b) => [b.id, b]));
    const unique = new Set(blockIds);
    if (unique.size !== blockIds.length || blockIds.length !== post.blocks.length || !blockIds.every((id) => current.has(id))) {
      throw badInput('blockIds', `must contain each of the post's ${post.blocks.length} block ids exactly once`);
    }
    post.blocks = blockIds.map((id) => current.get(id)!);
  });
}

/**
 * Replaces the block at `index` in place: same id, version + 1, new data (and type when given).
 * The data is checked here, against the type the block will have.
 */
export async function replaceBlock(
  ctx: RequestContext,
  postId: string,
  index: number,
  type: BlockType | null | undefined,
  props: Record<string, unknown> | null | undefined,
) {
  return editPost(ctx, postId, (post) => {
    if (!Number.isInteger(index) || index < 0 || index >= post.blocks.length) {
      throw badInput('index', post.blocks.length ? `must be 0 to ${post.blocks.length - 1}` : 'the post has no blocks');
    }
    const old = post.blocks[index];
    const { type: t, data } = blockData(type ?? old.type, props, 'props');
    const blocks: Block[] = [...post.blocks];
    blocks[index] = { id: old.id, version: old.version + 1, type: t, data };
    post.blocks = blocks;
  });
}

/** A post by its slug (as slugify stores it); storefronts see published posts only. */
export async function findPost(ctx: RequestContext, slug: string, publishedOnly: boolean) {
  let select = ctx.query.selectFrom('content.post').selectAll().where('slug', '=', slug);
  if (publishedOnly) select = select.where('status', '=', 'published');
  const post = await ctx.first(select);
  if (!post) throw notFound('Post');
  return post;
}

export async function listPosts(
  ctx: RequestContext,
  args: PostFilter & { search?: string | null; page?: number | null; limit?: number | null; offset?: number | null },
  publishedOnly: boolean,
) {
  // An offset, when given, is validated by the kernel and reports the page it falls in.
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('content.post').selectAll().orderBy('publishedAt', 'desc').orderBy('createdAt', 'desc').orderBy('id', 'desc');
  if (publishedOnly) select = select.where('status', '=', 'published');
  else if (args.status) select = select.where('status', '=', args.status);
  if (args.categoryId) select = select.where('categoryId', '=', args.categoryId);
  if (args.type) select = select.where('postTypeId', '=', (await resolveType(ctx, args.type)).id);
  const search = req.search && likePattern(req.search);
  if (search) select = select.where((e) => e.or([e('title', 'ilike', search), e('excerpt', 'ilike', search)]));
  return ctx.page(select, req);
}

/** The key of a post's type, found with the other posts' of the request. */
export async function postTypeKey(ctx: RequestContext, post: PostRow): Promise<string> {
  const type = await ctx.find('content.post_type', post.postTypeId);
  return type?.key ?? DEFAULT_TYPE.key;
}

/** A post's category, found with the other posts' of the request. */
export function postCategory(ctx: RequestContext, post: PostRow) {
  return post.categoryId ? ctx.find('content.category', post.categoryId) : null;
}
