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
    /** What the key may do (kernel/scopes.ts): `*`, `<toolset>:read`, `<toolset>:write`. */
    scopes: p.array().columnType('text[]'),
    /** The toolsets an MCP connection with this key shows unless it names others; null for all. */
    toolsets: p.array().columnType('text[]').nullable(),
    /** An MCP connection with this key only reads, whatever it asks. */
    readOnly: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
  indexes: [{ name: 'api_key_company_idx', properties: ['companyId', 'createdAt'] }],
});
export type ApiKey = InstanceType<typeof ApiKey.class>;
