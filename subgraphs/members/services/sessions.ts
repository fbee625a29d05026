import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../kernel/config.ts';
import { newId } from '../../kernel/ids.ts';
import { signSessionToken, type SessionKind } from '../../kernel/tokens.ts';
import { Session } from '../entities/customer.ts';

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
  em: EntityManager,
  config: Config,
  kind: SessionKind,
  companyId: string,
  subject: string,
  verified: { email?: string; phone?: string } = {},
): Promise<IssuedSession> {
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS[kind]);
  const sessionId = newId();
  em.create(Session, { id: sessionId, companyId, kind, subject, expiresAt } as any);
  const token = await signSessionToken(config.jwtSecret, { kind, companyId, subject, sessionId, ...verified }, expiresAt);
  return { token, expiresAt, sessionId };
}

/**
 * Ends a session once; false when it had already ended (a concurrent refresh or logout won).
 * The caller clears the principal cache (invalidatePrincipals) once this is committed.
 */
export async function revokeSession(em: EntityManager, sessionId: string, replacedBy: string | null = null): Promise<boolean> {
  const count = await em.nativeUpdate(Session, { id: sessionId, revokedAt: null }, { revokedAt: new Date(), replacedBy });
  return count === 1;
}

/** Ends every open session of a customer (their address was just proven by someone). */
export async function revokeCustomerSessions(em: EntityManager, customerId: string): Promise<void> {
  await em.nativeUpdate(Session, { kind: 'customer', subject: customerId, revokedAt: null }, { revokedAt: new Date() });
}
