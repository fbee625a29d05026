import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

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
