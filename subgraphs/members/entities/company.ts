import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

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
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    slug: p.text().unique(),
    industry: p.text(),
    country: p.character().length(2),
    timeZone: p.text(),
    currency: p.character().length(3),
    loginChannel: p.text().$type<LoginChannel>(),
    registrationFields: p.json<RegistrationField[]>(),
    ownerEmail: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  checks: [{ name: 'company_login_channel_check', expression: "login_channel in ('email', 'sms', 'whatsapp')" }],
});
export type Company = InstanceType<typeof Company.class>;

/** A host name that serves a company's storefront. Unique across tenants. */
export const StorefrontDomain = tenantEntity({
  name: 'StorefrontDomain',
  schema: 'members',
  tableName: 'storefront_domain',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    host: p.text().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'storefront_domain_company_idx', properties: ['companyId'] }],
});
export type StorefrontDomain = InstanceType<typeof StorefrontDomain.class>;
