import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** A merchant API key (`svc_mcp_…`). The secret is shown once and stored only as a hash. */
export const ApiKey = tenantEntity({
  name: 'ApiKey',
  schema: 'members',
  tableName: 'api_key',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    /** The first characters of the key, enough to recognise it in a list. */
    prefix: p.text(),
    keyHash: p.text().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
  indexes: [{ name: 'api_key_company_idx', properties: ['companyId', 'createdAt'] }],
});
export type ApiKey = InstanceType<typeof ApiKey.class>;
