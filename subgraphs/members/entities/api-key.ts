import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** A merchant API key (`svc_mcp_…`). The secret is shown once and stored only as a hash. */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  schema: 'members',
  tableName: 'api_key',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    /** The first characters of the key, enough to recognise it in a list. */
    prefix: p.string(),
    keyHash: p.string().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
  filters: tenantFilter,
});
export type ApiKey = InstanceType<typeof ApiKey.class>;
