/** Dashboard sign-in links: made at signup, exchanged once for a merchant session. */
import type { RequestContext } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { randomToken, sha256 } from '../../kernel/tokens.ts';
import { LoginLink } from '../entities/login-link.ts';
import { issueSession } from './sessions.ts';

const LOGIN_LINK_TTL_MS = 15 * 60 * 1000;

/** A one-time link for the dashboard; its token is exchanged for a merchant session. */
export function createLoginLink(tx: RequestContext, companyId: string, email: string): string {
  const token = randomToken(32);
  tx.em.create(LoginLink, { id: newId(), companyId, email, tokenHash: sha256(token), expiresAt: new Date(tx.now().getTime() + LOGIN_LINK_TTL_MS) });
  return `${tx.config.publicUrl}/dashboard/login?token=${token}`;
}

export async function exchangeLoginLink(ctx: RequestContext, token: string) {
  return ctx.transaction(async (tx) => {
    // Not a tenant table: the exchange has no company yet.
    const link = await tx.first(tx.query.selectFrom('members.login_link').selectAll().where('tokenHash', '=', sha256(token)));
    if (!link || link.usedAt || link.expiresAt.getTime() <= tx.now().getTime())
      throw new AppError('UNAUTHENTICATED', 'This sign-in link is invalid, used or expired');
    const { numUpdatedRows: used } = await tx.query
      .updateTable('members.login_link')
      .set({ usedAt: tx.now() })
      .where('id', '=', link.id)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    if (Number(used) !== 1) throw new AppError('UNAUTHENTICATED', 'This sign-in link is invalid, used or expired');
    const session = await issueSession(tx, 'merchant', link.companyId, link.email);
    return { token: session.token, expiresAt: session.expiresAt, companyId: link.companyId };
  });
}
