import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';

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
