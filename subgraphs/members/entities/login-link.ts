import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { Company } from './company.ts';

/** A one-time dashboard sign-in link, exchanged for a merchant session. */
export const LoginLink = defineEntity({
  name: 'LoginLink',
  schema: 'members',
  tableName: 'login_link',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    companyId: p.manyToOne(Company).mapToPk().deferMode('deferred'),
    email: p.text(),
    tokenHash: p.text().unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type LoginLink = InstanceType<typeof LoginLink.class>;
