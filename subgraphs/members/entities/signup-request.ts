import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { Company } from './company.ts';

/** An organisation signup waiting for its emailed code. Not a tenant row: the company does not exist yet. */
export const SignupRequest = defineEntity({
  name: 'SignupRequest',
  schema: 'members',
  tableName: 'signup_request',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    email: p.text(),
    organisationName: p.text(),
    industry: p.text(),
    country: p.character().length(2),
    codeHash: p.text(),
    attempts: p.integer().default(0),
    expiresAt: p.datetime(),
    completedAt: p.datetime().nullable(),
    /** The company the signup created, once verified. */
    companyId: p.manyToOne(Company).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'signup_request_email_idx', properties: ['email', 'createdAt'] }],
});
export type SignupRequest = InstanceType<typeof SignupRequest.class>;
