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

/** An organisation signup waiting for its emailed code. Not a tenant row: the company does not exist yet. */
export const SignupRequest = defineEntity({
  name: 'SignupRequest',
  schema: 'members',
  tableName: 'signup_request',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    email: p.string(),
    organisationName: p.string(),
    industry: p.string(),
    country: p.string(),
    codeHash: p.string(),
    attempts: p.integer().default(0),
    expiresAt: p.datetime(),
    completedAt: p.datetime().nullable(),
    companyId: p.uuid().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type SignupRequest = InstanceType<typeof SignupRequest.class>;

/** A one-time dashboard sign-in link, exchanged for a merchant session. */
export const LoginLink = defineEntity({
  name: 'LoginLink',
  schema: 'members',
  tableName: 'login_link',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    email: p.string(),
    tokenHash: p.string().unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type LoginLink = InstanceType<typeof LoginLink.class>;
