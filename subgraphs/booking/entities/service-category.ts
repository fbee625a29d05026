import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** A group of services (the catalogue's sections); names are unique per company, ignoring case. */
export const ServiceCategory = defineEntity({
  name: 'ServiceCategory',
  schema: 'booking',
  tableName: 'service_category',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type ServiceCategory = InstanceType<typeof ServiceCategory.class>;
