import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** A room or piece of equipment a service uses. */
export const Resource = defineEntity({
  name: 'Resource',
  schema: 'booking',
  tableName: 'resource',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    type: p.string(),
    active: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Resource = InstanceType<typeof Resource.class>;
