import type { Database } from './database.ts';
import { AppError, badInput, notFound, unauthenticated } from './errors.ts';
import { isUuid } from './ids.ts';
import { API_KEY_PREFIX, sha256, verifySessionToken } from './tokens.ts';

/** Who is calling, for which company. Resolved once per request from its headers. */
export type Principal =
  | { kind: 'anonymous'; companyId: null; tenantError?: AppError }
  | { kind: 'public'; companyId: string }
  | { kind: 'customer'; companyId: string; customerId: string; sessionId: string; verifiedEmail?: string; verifiedPhone?: string }
  | { kind: 'merchant'; companyId: string; credentialId: string; via: 'api_key' | 'session' }
  /** The platform itself: event handlers and jobs, never a request. */
  | { kind: 'system'; companyId: string };

/** Reads a request header by lower-case name, whatever carries the request (fetch Request, node, router context). */
export type HeaderReader = (name: string) => string | undefined;

export function headerReader(headers: Headers | Record<string, string | string[] | undefined> | undefined): HeaderReader {
  if (!headers) return () => undefined;
  if (typeof (headers as Headers).get === 'function') return (name) => (headers as Headers).get(name) ?? undefined;
  return (name) => {
    const v = (headers as Record<string, string | string[] | undefined>)[name];
    return Array.isArray(v) ? v[0] : v;
  };
}

/**
 * Cached briefly so a request fan-out (router → several subgraphs) resolves once; revocation clears
 * the cache of the process that revokes, so the embedded topology refuses a revoked credential at once
 * and other processes within the TTL.
 */
const CACHE_TTL_MS = 5000;
const cache = new Map<string, { at: number; principal: Promise<Principal> }>();

export function invalidatePrincipals(): void {
  cache.clear();
}

/** API key use is recorded at most once a minute per key and process. */
const USE_RECORD_MS = 60_000;
const lastRecorded = new Map<string, number>();

export function resolvePrincipal(db: Database, secret: string, header: HeaderReader): Promise<Principal> {
  const authorization = header('authorization')?.trim();
  const companyHeader = header('x-company-id')?.trim();
  const host = (header('x-forwarded-host') ?? header('host'))?.split(',')[0].trim().toLowerCase().replace(/:\d+$/, '');
  const key = `${authorization ?? ''}|${companyHeader ?? ''}|${host ?? ''}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.principal;
  const principal = resolve(db, secret, authorization, companyHeader, host);
  cache.set(key, { at: Date.now(), principal });
  principal.catch(() => cache.delete(key));
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return principal;
}

async function resolve(db: Database, secret: string, authorization?: string, companyHeader?: string, host?: string): Promise<Principal> {
  const conn = db.orm.em.getConnection();
  let credential: Exclude<Principal, { kind: 'anonymous' } | { kind: 'public' }> | null = null;

  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw unauthenticated('Authorization must be "Bearer <token>"');
    const token = match[1];
    if (token.startsWith(API_KEY_PREFIX)) {
      const [row] = await conn.execute<any[]>('select id, company_id from members.api_key where key_hash = ? and revoked_at is null', [sha256(token)]);
      if (!row) throw unauthenticated('Invalid or revoked API key');
      credential = { kind: 'merchant', companyId: row.company_id, credentialId: row.id, via: 'api_key' };
      await recordUse(db, row.id);
    } else {
      const claims = await verifySessionToken(secret, token);
      if (!claims) throw unauthenticated('Invalid or expired token');
      const [row] = await conn.execute<any[]>(
        'select id from members.session where id = ? and company_id = ? and kind = ? and revoked_at is null and expires_at > now()',
        [claims.sessionId, claims.companyId, claims.kind],
      );
      if (!row) throw unauthenticated('Session has ended; sign in again');
      credential =
        claims.kind === 'customer'
          ? { kind: 'customer', companyId: claims.companyId, customerId: claims.subject, sessionId: claims.sessionId, verifiedEmail: claims.email, verifiedPhone: claims.phone }
          : { kind: 'merchant', companyId: claims.companyId, credentialId: claims.sessionId, via: 'session' };
    }
  }

  if (companyHeader !== undefined && companyHeader !== '') {
    if (!isUuid(companyHeader)) {
      const error = badInput('X-Company-Id', 'must be a company id (UUID)');
      if (credential) throw error;
      return { kind: 'anonymous', companyId: null, tenantError: error };
    }
    if (credential) {
      // A credential belongs to one company: naming another one is refused, never served.
      if (credential.companyId !== companyHeader) throw unauthenticated('This token is not valid for that company');
      return credential;
    }
    const [company] = await conn.execute<any[]>('select id from members.company where id = ?', [companyHeader]);
    if (!company) return { kind: 'anonymous', companyId: null, tenantError: notFound('Company') };
    return { kind: 'public', companyId: companyHeader };
  }

  if (credential) {
    // A customer token is only good on its own company's storefront.
    if (credential.kind === 'customer' && host) {
      const [domain] = await conn.execute<any[]>('select company_id from members.storefront_domain where host = ?', [host]);
      if (domain && domain.company_id !== credential.companyId) throw unauthenticated('This token is not valid for this storefront');
    }
    return credential;
  }

  if (host) {
    const [domain] = await conn.execute<any[]>('select company_id from members.storefront_domain where host = ?', [host]);
    if (domain) return { kind: 'public', companyId: domain.company_id };
  }
  return { kind: 'anonymous', companyId: null };
}

async function recordUse(db: Database, credentialId: string): Promise<void> {
  const now = Date.now();
  if (now - (lastRecorded.get(credentialId) ?? 0) < USE_RECORD_MS) return;
  lastRecorded.set(credentialId, now);
  await db.orm.em
    .getConnection()
    .execute(
      'insert into kernel.credential_use (credential_id, last_used_at) values (?, now()) on conflict (credential_id) do update set last_used_at = excluded.last_used_at',
      [credentialId],
    );
}
