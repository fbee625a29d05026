/** Post types and their custom fields, including the `post` type every company has. */
import { sql } from 'kysely';
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, conflict, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { PostType, PostTypeField, type FieldType } from '../entities/post-type.ts';

export const DEFAULT_TYPE = { key: 'post', label: 'Post' };

export type PostTypeRow = RowOf<'content.post_type'>;

/** The company's `post` type, created on first use (every company has it). */
export async function defaultPostType(ctx: RequestContext): Promise<PostTypeRow> {
  return ctx.transaction(async (tx) => {
    await tx.query
      .insertInto('content.post_type')
      .values({ id: newId(), key: DEFAULT_TYPE.key, label: DEFAULT_TYPE.label, createdAt: sql<Date>`now()` })
      .onConflict((oc) => oc.columns(['companyId', 'key']).doNothing())
      .execute();
    const type = await tx.first(tx.query.selectFrom('content.post_type').selectAll().where('key', '=', DEFAULT_TYPE.key));
    if (!type) throw new Error('The default post type was not created');
    return type;
  });
}

/** A post type as the edge checked it (resolvers/post-type.inputs.ts). */
export interface PostTypeFields {
  key: string;
  label: string;
}

/** A custom field of a post type as the edge checked it; a select field comes with its options. */
export interface PostTypeFieldFields {
  postTypeId: string;
  key: string;
  label: string;
  fieldType: FieldType;
  required?: boolean | null;
  options?: string[] | null;
}

export async function createPostType(ctx: RequestContext, input: PostTypeFields) {
  const { key, label } = input;
  return ctx.transaction(async (tx) => {
    if (key === DEFAULT_TYPE.key || (await tx.first(tx.query.selectFrom('content.post_type').select('id').where('key', '=', key))))
      throw conflict(`The post type "${key}" exists`, { field: 'key' });
    return tx.em.create(PostType, { id: newId(), key, label });
  });
}

export async function listPostTypes(ctx: RequestContext) {
  await defaultPostType(ctx);
  return ctx.all(ctx.query.selectFrom('content.post_type').selectAll().orderBy('createdAt').orderBy('id'));
}

export async function createPostTypeField(ctx: RequestContext, input: PostTypeFieldFields) {
  const { postTypeId, key, label, fieldType, options } = input;
  return ctx.transaction(async (tx) => {
    const type = await tx.first(tx.query.selectFrom('content.post_type').select(['id', 'key']).where('id', '=', postTypeId));
    if (!type) throw notFound('Post type');
    if (await tx.first(tx.query.selectFrom('content.post_type_field').select('id').where('postTypeId', '=', type.id).where('key', '=', key)))
      throw conflict(`The field "${key}" exists on ${type.key}`, { field: 'key' });
    return tx.em.create(PostTypeField, {
      id: newId(),
      postTypeId: type.id,
      key,
      label,
      fieldType,
      required: !!input.required,
      options: options ?? null,
    });
  });
}

/** A post type's fields, read with the other types' of the request. */
export function fieldsOf(ctx: RequestContext, typeId: string) {
  return ctx.loader('content.typeFields', (ids: readonly string[]) => fieldsOfTypes(ctx, ids)).load(typeId);
}

export async function fieldsOfTypes(ctx: RequestContext, typeIds: readonly string[]) {
  const rows = await ctx.all(
    ctx.query.selectFrom('content.post_type_field').selectAll().where('postTypeId', '=', anyOf(typeIds)).orderBy('createdAt').orderBy('id'),
  );
  return perKey(typeIds, rows, (f) => f.postTypeId);
}

/** A post type by key; none, empty or `post` is the default type. */
export async function resolveType(ctx: RequestContext, key: string | null | undefined): Promise<PostTypeRow> {
  if (key == null || key === '' || key === DEFAULT_TYPE.key) return defaultPostType(ctx);
  const type = await ctx.first(ctx.query.selectFrom('content.post_type').selectAll().where('key', '=', key));
  if (!type) throw badInput('type', `is not a post type of this company (create it with create_post_type)`);
  return type;
}
