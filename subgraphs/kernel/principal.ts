import { sql, type Kysely } from 'kysely';
import type { Database } from './database.ts';
import { AppError, badInput, notFound, unauthenticated } from './errors.ts';
import { isUuid } from './ids.ts';
import { queryAcrossTenants, systemQuery } from './query.ts';
import type { Tables } from './tables.ts';
import { API_KEY_PREFIX, sha256, verifySessionToken } from './tokens.ts';

/** Who is calling, for which company. Resolved once per request from its headers. */
export type Principal =
  | { kind: 'anonymous'; companyId: null; tenantError?: AppError }
  | { kind: 'public'; companyId: string }
  | { kind: 'customer'; companyId: string; customerId: string; sessionId: string; verifiedEmail?: string; verifiedPhone?: string }
  | {
      kind: 'merchant';
      companyId: string;
      credentialId: string;
      via: 'api_key' | 'session';
      /** What it may do (kernel/scopes.ts): a session `*`, a key its own. */
      scopes: readonly string[];
      /** A key's MCP defaults: the toolsets it shows and whether it only reads, when a connection does not say. */
      mcp: { toolsets: readonly string[] | null; readOnly: boolean };
    }
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
 * Cached briefly so a request fan-out (router → several subgraphs) resolves once. An entry goes
 * when the credential it names ends: at once in the process that ends it (`invalidatePrincipals`
 * after its commit), and in every other process when the kernel's revocation listener hears the
 * commit's notification (revocation.ts), well within a second. The TTL is only the safety net
 * behind that: while a listener is not connected the cache is suspended (every request resolves
 * afresh), and an entry never outlives the session it names.
 */
const CACHE_TTL_MS = 5000;
interface Entry {
  /** Until when (epoch ms) the entry may answer. */
  until: number;
  principal: Promise<Principal>;
  /** The request's host, which decides a storefront's tenant. */
  host?: string;
  /** Once resolved. */
  value?: Principal;
}
const cache = new Map<string, Entry>();

/**
 * What ended or changed: one API key, one session, every session of one customer, or what a host
 * resolves to (a storefront domain claimed).
 */
export type PrincipalChange = { apiKey: string } | { session: string } | { customer: string } | { host: string };

/**
 * Forgets the cached principals a change touches (all of them without one), and those still
 * resolving, whose reads may have preceded the change (whoever awaits them keeps their answer).
 */
export function invalidatePrincipals(change?: PrincipalChange): void {
  if (!change) return cache.clear();
  for (const [key, entry] of cache) if (!entry.value || touches(change, entry, entry.value)) cache.delete(key);
}

function touches(change: PrincipalChange, entry: Entry, p: Principal): boolean {
  if ('apiKey' in change) return p.kind === 'merchant' && p.via === 'api_key' && p.credentialId === change.apiKey;
  if ('session' in change)
    return (p.kind === 'customer' && p.sessionId === change.session) || (p.kind === 'merchant' && p.via === 'session' && p.credentialId === change.session);
  if ('customer' in change) return p.kind === 'customer' && p.customerId === change.customer;
  return entry.host === change.host;
}

/** Listeners that are not listening (revocation.ts): while any is, nothing is cached. */
let suspensions = 0;

/**
 * Turns the cache off (and empties it) until the returned function is called: a process that
 * cannot hear revocations must not answer from memory.
 */
export function suspendPrincipalCache(): () => void {
  suspensions++;
  cache.clear();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    suspensions--;
    cache.clear();
  };
}

/** API key use is recorded at most once a minute per key and process. */
const USE_RECORD_MS = 60_000;
const lastRecorded = new Map<string, number>();

export function resolvePrincipal(db: Database, secret: string, header: HeaderReader): Promise<Principal> {
  const authorization = header('authorization')?.trim();
  const companyHeader = header('x-company-id')?.trim();
  const host = (header('x-forwarded-host') ?? header('host'))?.split(',')[0].trim().toLowerCase().replace(/:\d+$/, '');
  if (suspensions > 0) return resolve(db, secret, authorization, companyHeader, host, {});
  const key = `${authorization ?? ''}|${companyHeader ?? ''}|${host ?? ''}`;
  const hit = cache.get(key);
  if (hit && Date.now() < hit.until) return hit.principal;
  const session: { expiresAt?: number } = {};
  const principal = resolve(db, secret, authorization, companyHeader, host, session);
  const entry: Entry = { until: Date.now() + CACHE_TTL_MS, principal, host };
  cache.set(key, entry);
  principal.then(
    (value) => {
      if (session.expiresAt !== undefined) entry.until = Math.min(entry.until, session.expiresAt);
      entry.value = value;
    },
    // A failure is not remembered (only this entry goes, never a newer one for the same key).
    () => cache.get(key) === entry && cache.delete(key),
  );
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return principal;
}

/** `session.expiresAt` tells when the session the principal names expires (epoch ms). */
async function resolve(
  db: Database,
  secret: string,
  authorization: string | undefined,
  companyHeader: string | undefined,
  host: string | undefined,
  session: { expiresAt?: number },
): Promise<Principal> {
  // Who is calling decides the company: these lookups come before any, so they cross tenants, and say so.
  const q = queryAcrossTenants(db.orm.em).query;
  let credential: Exclude<Principal, { kind: 'anonymous' } | { kind: 'public' }> | null = null;

  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw unauthenticated('Authorization must be "Bearer <token>"');
    const token = match[1];
    if (token.startsWith(API_KEY_PREFIX)) {
      const row = await q
        .selectFrom('members.api_key')
        .select(['id', 'companyId', 'scopes', 'toolsets', 'readOnly'])
        .where('keyHash', '=', sha256(token))
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      if (!row) throw unauthenticated('Invalid or revoked API key');
      credential = {
        kind: 'merchant',
        companyId: row.companyId,
        credentialId: row.id,
        via: 'api_key',
        scopes: row.scopes,
        mcp: { toolsets: row.toolsets ?? null, readOnly: row.readOnly },
      };
      await recordUse(db, row.id);
    } else {
      const claims = await verifySessionToken(secret, token);
      if (!claims) throw unauthenticated('Invalid or expired token');
      const row = await q
        .selectFrom('members.session')
        .select(['id', 'expiresAt'])
        .where('id', '=', claims.sessionId)
        .where('companyId', '=', claims.companyId)
        .where('kind', '=', claims.kind)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', sql<Date>`now()`)
        .executeTakeFirst();
      if (!row) throw unauthenticated('Session has ended; sign in again');
      // A Date where this process has members' entities; PostgreSQL's text where it has not (the router).
      session.expiresAt = new Date(row.expiresAt).getTime();
      credential =
        claims.kind === 'customer'
          ? {
              kind: 'customer',
              companyId: claims.companyId,
              customerId: claims.subject,
              sessionId: claims.sessionId,
              verifiedEmail: claims.email,
              verifiedPhone: claims.phone,
            }
          : {
              kind: 'merchant',
              companyId: claims.companyId,
              credentialId: claims.sessionId,
              via: 'session',
              scopes: ['*'],
              mcp: { toolsets: null, readOnly: false },
            };
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
    const company = await q.selectFrom('members.company').select('id').where('id', '=', companyHeader).executeTakeFirst();
    if (!company) return { kind: 'anonymous', companyId: null, tenantError: notFound('Company') };
    return { kind: 'public', companyId: companyHeader };
  }

  if (credential) {
    // A customer token is only good on its own company's storefront.
    if (credential.kind === 'customer' && host) {
      const domain = await companyOfHost(q, host);
      if (domain && domain.companyId !== credential.companyId) throw unauthenticated('This token is not valid for this storefront');
    }
    return credential;
  }

  if (host) {
    const domain = await companyOfHost(q, host);
    if (domain) return { kind: 'public', companyId: domain.companyId };
  }
  return { kind: 'anonymous', companyId: null };
}

const companyOfHost = (q: Kysely<Tables>, host: string) =>
  q.selectFrom('members.storefront_domain').select('companyId').where('host', '=', host).executeTakeFirst();

async function recordUse(db: Database, credentialId: string): Promise<void> {
  const now = Date.now();
  if (now - (lastRecorded.get(credentialId) ?? 0) < USE_RECORD_MS) return;
  lastRecorded.set(credentialId, now);
  await systemQuery(db.orm.em)
    .insertInto('kernel.credential_use')
    .values({ credentialId, lastUsedAt: sql<Date>`now()` })
    .onConflict((oc) => oc.column('credentialId').doUpdateSet((eb) => ({ lastUsedAt: eb.ref('excluded.lastUsedAt') })))
    .execute();
}
