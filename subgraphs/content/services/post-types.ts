/** Post types and their custom fields, including the `post` type every company has. */
import { sql } from 'kysely';
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, conflict, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { oneOf, requireText } from '../../kernel/validation.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { FIELD_TYPES, PostType, PostTypeField } from '../entities/post-type.ts';
import { RESERVED_KEYS } from './slugs.ts';

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

export async function createPostType(ctx: RequestContext, input: { key?: string; label?: string }) {
  const key = requireText('key', input.key, 40);
  if (!/^[a-z][a-z0-9_]*$/.test(key)) throw badInput('key', 'must be lower-case letters, digits or _ starting with a letter');
  return ctx.transaction(async (tx) => {
    if (key === DEFAULT_TYPE.key || (await tx.first(tx.query.selectFrom('content.post_type').select('id').where('key', '=', key)))) throw conflict(`The post type "${key}" exists`, { field: 'key' });
    return tx.em.create(PostType, { id: newId(), key, label: requireText('label', input.label, 100) });
  });
}

export async function listPostTypes(ctx: RequestContext) {
  await defaultPostType(ctx);
  return ctx.all(ctx.query.selectFrom('content.post_type').selectAll().orderBy('createdAt').orderBy('id'));
}

export async function createPostTypeField(ctx: RequestContext, input: { postTypeId?: string; key?: string; label?: string; fieldType?: string; required?: boolean | null; options?: string[] | null }) {
  const postTypeId = input.postTypeId;
  if (!isUuid(postTypeId)) throw badInput('postTypeId', 'must be a post type id');
  return ctx.transaction(async (tx) => {
    const type = await tx.first(tx.query.selectFrom('content.post_type').select(['id', 'key']).where('id', '=', postTypeId));
    if (!type) throw notFound('Post type');
    const key = requireText('key', input.key, 40);
    if (!/^[a-zA-Z][a-zA-Z0-9_]*$/.test(key) || RESERVED_KEYS.has(key)) throw badInput('key', 'must be letters, digits or _ starting with a letter (not a reserved name)');
    const fieldType = oneOf('fieldType', input.fieldType, FIELD_TYPES);
    const options = input.options?.map((o, i) => requireText(`options[${i}]`, o, 100));
    if (input.fieldType === 'select' && !options?.length) throw badInput('options', 'a select field needs options');
    if (await tx.first(tx.query.selectFrom('content.post_type_field').select('id').where('postTypeId', '=', type.id).where('key', '=', key))) throw conflict(`The field "${key}" exists on ${type.key}`, { field: 'key' });
    return tx.em.create(PostTypeField, {
      id: newId(),
      postTypeId: type.id,
      key,
      label: requireText('label', input.label, 100),
      fieldType,
      required: !!input.required,
      options: options ?? null,
    });
  });
}

export async function fieldsOfTypes(ctx: RequestContext, typeIds: readonly string[]) {
  const rows = await ctx.all(ctx.query.selectFrom('content.post_type_field').selectAll().where('postTypeId', '=', anyOf(typeIds)).orderBy('createdAt').orderBy('id'));
  return perKey(typeIds, rows, (f) => f.postTypeId);
}

/** A post type by key; none, empty or `post` is the default type. */
export async function resolveType(ctx: RequestContext, key: unknown): Promise<PostTypeRow> {
  if (key == null || key === '' || key === DEFAULT_TYPE.key) return defaultPostType(ctx);
  const type = await ctx.first(ctx.query.selectFrom('content.post_type').selectAll().where('key', '=', String(key)));
  if (!type) throw badInput('type', `is not a post type of this company (create it with create_post_type)`);
  return type;
}
