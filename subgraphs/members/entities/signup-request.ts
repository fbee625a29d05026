import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';

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
