import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

export const LOGIN_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type LoginChannel = (typeof LOGIN_CHANNELS)[number];

export const FIELD_TYPES = ['text', 'email', 'phone', 'date', 'select', 'checkbox'] as const;

/** One field of the storefront's registration form. */
export interface RegistrationField {
  key: string;
  label: string;
  type: (typeof FIELD_TYPES)[number];
  required: boolean;
  options?: string[];
}

export const DEFAULT_REGISTRATION_FIELDS: RegistrationField[] = [
  { key: 'name', label: 'First name', type: 'text', required: true },
  { key: 'lastName', label: 'Last name', type: 'text', required: false },
  { key: 'email', label: 'Email', type: 'email', required: false },
  { key: 'phone', label: 'Phone', type: 'phone', required: false },
];

/** A tenant: one business. Its id is the tenant id every other table carries. */
export const Company = defineEntity({
  name: 'Company',
  schema: 'members',
  tableName: 'company',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    name: p.string(),
    slug: p.string().unique(),
    industry: p.string(),
    country: p.string(),
    timeZone: p.string(),
    currency: p.string(),
    loginChannel: p.string().$type<LoginChannel>(),
    registrationFields: p.json<RegistrationField[]>(),
    ownerEmail: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type Company = InstanceType<typeof Company.class>;

/** A host name that serves a company's storefront. Unique across tenants. */
export const StorefrontDomain = defineEntity({
  name: 'StorefrontDomain',
  schema: 'members',
  tableName: 'storefront_domain',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    host: p.string().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type StorefrontDomain = InstanceType<typeof StorefrontDomain.class>;
