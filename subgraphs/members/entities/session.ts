import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/**
 * A signed-in session behind a JWT (customer or merchant). The token names the session, so
 * logout and refresh revoke it here and the token is refused everywhere after.
 */
export const Session = tenantEntity({
  name: 'Session',
  schema: 'members',
  tableName: 'session',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    kind: p.text().$type<'customer' | 'merchant'>(),
    /** The customer id, or the merchant's email. */
    subject: p.text(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    replacedBy: p.uuid().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  checks: [{ name: 'session_kind_check', expression: "kind in ('customer', 'merchant')" }],
});
export type Session = InstanceType<typeof Session.class>;
