import type { ConstraintTable } from '../kernel/constraints.ts';

const slugTaken = { code: 'CONFLICT', field: 'slug', message: 'This slug is already used' } as const;

/** The unique (company, slug) indexes of titled rows: a violation is a slug taken by a concurrent write. */
export const SLUG_CONSTRAINTS = [
  'category_company_id_slug_key',
  'post_company_id_slug_key',
  'page_company_id_slug_key',
  'event_company_id_slug_key',
  'survey_company_id_slug_key',
];

/** What content's constraints mean to a client (names as PostgreSQL gave them in migrations/0001). */
export const contentConstraints: ConstraintTable = {
  ...Object.fromEntries(SLUG_CONSTRAINTS.map((name) => [name, slugTaken])),
  post_type_company_id_key_key: { code: 'CONFLICT', field: 'key', message: 'A post type with this key exists' },
  post_type_field_post_type_id_key_key: { code: 'CONFLICT', field: 'key', message: 'A field with this key exists on the post type' },
  survey_response_invitation_id_key: { code: 'CONFLICT', message: 'This invitation has already been answered' },
};
