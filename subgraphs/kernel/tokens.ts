import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/** Secrets (API keys, OTP codes, link tokens) are stored only as SHA-256 hashes. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export const randomToken = (bytes = 24) => randomBytes(bytes).toString('base64url');

/** A 6-digit one-time code, uniformly random. */
export const otpCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export const API_KEY_PREFIX = 'svc_mcp_';

export type SessionKind = 'customer' | 'merchant';

export interface SessionClaims {
  kind: SessionKind;
  companyId: string;
  subject: string;
  sessionId: string;
  /** A customer's verified contacts, so other subgraphs can match guest records made with them. */
  email?: string;
  phone?: string;
}

const ISSUER = 'service-platform';

export async function signSessionToken(secret: string, claims: SessionClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({
    typ: claims.kind,
    cid: claims.companyId,
    sid: claims.sessionId,
    ...(claims.email ? { em: claims.email } : {}),
    ...(claims.phone ? { ph: claims.phone } : {}),
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.subject)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(new TextEncoder().encode(secret));
}

/** Verifies signature and expiry; the session row is checked by the caller. Null when invalid. */
export async function verifySessionToken(secret: string, token: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { issuer: ISSUER, algorithms: ['HS256'] });
    const kind = payload.typ;
    if ((kind !== 'customer' && kind !== 'merchant') || typeof payload.cid !== 'string' || typeof payload.sid !== 'string' || !payload.sub) return null;
    const email = typeof payload.em === 'string' ? payload.em : undefined;
    const phone = typeof payload.ph === 'string' ? payload.ph : undefined;
    return { kind, companyId: payload.cid, subject: payload.sub, sessionId: payload.sid, email, phone };
  } catch {
    return null;
  }
}
