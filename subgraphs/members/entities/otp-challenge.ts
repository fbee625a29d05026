import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** A one-time password sent to an address; only its hash is kept. */
export const OtpChallenge = tenantEntity({
  name: 'OtpChallenge',
  schema: 'members',
  tableName: 'otp_challenge',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    channel: p.text().$type<'email' | 'sms' | 'whatsapp'>(),
    address: p.text(),
    codeHash: p.text(),
    attempts: p.integer().default(0),
    expiresAt: p.datetime(),
    consumedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'otp_challenge_address_idx', properties: ['companyId', 'address', 'createdAt'] }],
});
export type OtpChallenge = InstanceType<typeof OtpChallenge.class>;
