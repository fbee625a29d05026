import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** A company's customer (a "member" in the storefront's words). Email and phone are unique per company. */
export const Customer = defineEntity({
  name: 'Customer',
  schema: 'members',
  tableName: 'customer',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    lastName: p.string().nullable(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    source: p.string().nullable(),
    /** Answers to the company's extra registration fields. */
    attributes: p.json<Record<string, unknown>>().nullable(),
    emailVerifiedAt: p.datetime().nullable(),
    phoneVerifiedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Customer = InstanceType<typeof Customer.class>;

/** A one-time password sent to an address; only its hash is kept. */
export const OtpChallenge = defineEntity({
  name: 'OtpChallenge',
  schema: 'members',
  tableName: 'otp_challenge',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    channel: p.string().$type<'email' | 'sms' | 'whatsapp'>(),
    address: p.string(),
    codeHash: p.string(),
    attempts: p.integer().default(0),
    expiresAt: p.datetime(),
    consumedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type OtpChallenge = InstanceType<typeof OtpChallenge.class>;

/**
 * A signed-in session behind a JWT (customer or merchant). The token names the session, so
 * logout and refresh revoke it here and the token is refused everywhere after.
 */
export const Session = defineEntity({
  name: 'Session',
  schema: 'members',
  tableName: 'session',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    kind: p.string().$type<'customer' | 'merchant'>(),
    /** The customer id, or the merchant's email. */
    subject: p.string(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    replacedBy: p.uuid().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Session = InstanceType<typeof Session.class>;
