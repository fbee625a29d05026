import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { announceRevocation } from '../../kernel/revocation.ts';
import { signSessionToken, type SessionKind } from '../../kernel/tokens.ts';
import { Session } from '../entities/session.ts';

export const SESSION_TTL_MS: Record<SessionKind, number> = {
  customer: 30 * 24 * 60 * 60 * 1000,
  merchant: 12 * 60 * 60 * 1000,
};

export interface IssuedSession {
  token: string;
  expiresAt: Date;
  sessionId: string;
}

/**
 * Opens a session row and signs the JWT that names it (and, for customers, their verified email
 * and phone). Flushed by the caller's transaction.
 */
export async function issueSession(
  tx: RequestContext,
  kind: SessionKind,
  companyId: string,
  subject: string,
  verified: { email?: string; phone?: string } = {},
): Promise<IssuedSession> {
  const expiresAt = new Date(tx.now().getTime() + SESSION_TTL_MS[kind]);
  const sessionId = newId();
  // Explicit: the session belongs to the company its token is signed for, which a dashboard link's
  // exchange knows from the link (its context has no company yet).
  tx.em.create(Session, { id: sessionId, companyId, kind, subject, expiresAt });
  const token = await signSessionToken(tx.config.jwtSecret, { kind, companyId, subject, sessionId, ...verified }, expiresAt);
  return { token, expiresAt, sessionId };
}

/**
 * Ends a session once; false when it had already ended (a concurrent refresh or logout won).
 * Every process refuses its token from the commit on (announceRevocation).
 */
export async function revokeSession(tx: RequestContext, sessionId: string, replacedBy: string | null = null): Promise<boolean> {
  const { numUpdatedRows } = await tx.query
    .updateTable('members.session')
    .set({ revokedAt: tx.now(), replacedBy })
    .where('id', '=', sessionId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  const count = Number(numUpdatedRows);
  if (count === 1) await announceRevocation(tx, { session: sessionId });
  return count === 1;
}

/**
 * Ends every open session of a customer (their address was just proven by someone, or they are
 * erased); every process refuses their tokens from the commit on.
 */
export async function revokeCustomerSessions(tx: RequestContext, customerId: string): Promise<void> {
  const { numUpdatedRows } = await tx.query
    .updateTable('members.session')
    .set({ revokedAt: tx.now() })
    .where('kind', '=', 'customer')
    .where('subject', '=', customerId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  const count = Number(numUpdatedRows);
  if (count > 0) await announceRevocation(tx, { customer: customerId });
}
