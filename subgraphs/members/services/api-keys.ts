import type { RequestContext } from '../../kernel/context.ts';
import { AppError, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { likePattern, pageRequest, toPage } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import { announceRevocation } from '../../kernel/revocation.ts';
import { grants, type Scope } from '../../kernel/scopes.ts';
import type { Toolset } from '../../kernel/toolsets.ts';
import { API_KEY_PREFIX, randomToken, sha256 } from '../../kernel/tokens.ts';
import { ApiKey } from '../entities/api-key.ts';

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  status: 'ACTIVE' | 'REVOKED';
  scopes: string[];
  toolsets: string[] | null;
  readOnly: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** What a key may do, and its MCP defaults; a signup's first key may do everything. */
export interface KeySettings {
  scopes: Scope[];
  toolsets: Toolset[] | null;
  readOnly: boolean;
}

const EVERYTHING: KeySettings = { scopes: ['*'], toolsets: null, readOnly: false };

/**
 * Creates a key in the caller's unit of work, for the context's company or, at signup and in the
 * demo seed, explicitly for the company just created; the secret is returned here and never again.
 */
export function mintApiKey(
  tx: RequestContext,
  name: string,
  forCompany: { companyId?: string } = {},
  settings: KeySettings = EVERYTHING,
): { key: string; row: ApiKey } {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  const row = tx.em.create(ApiKey, {
    id: newId(),
    name,
    prefix: key.slice(0, API_KEY_PREFIX.length + 6),
    keyHash: sha256(key),
    scopes: settings.scopes,
    toolsets: settings.toolsets,
    readOnly: settings.readOnly,
    ...forCompany,
  });
  return { key, row };
}

/** A key to create, checked by the edge (resolvers/api-key.inputs.ts). */
export interface NewApiKey extends KeySettings {
  name: string;
}

/** A key may be given only scopes its creator has: a narrowed key cannot make a wider one. */
export async function createApiKey(ctx: RequestContext, input: NewApiKey) {
  const principal = await ctx.authenticate();
  const held = principal.kind === 'merchant' ? principal.scopes : [];
  const missing = input.scopes.filter((scope) => !grants(held, scope));
  if (missing.length)
    throw new AppError('INSUFFICIENT_SCOPE', `scopes: this credential cannot grant ${missing.join(', ')}, which it does not have`, {
      field: 'scopes',
      required: missing,
    });
  const { key, row } = await ctx.transaction(async (tx) => mintApiKey(tx, input.name, {}, input));
  return { ...view(row, null), key };
}

export async function listApiKeys(ctx: RequestContext, args: { page?: number | null; limit?: number | null; search?: string | null }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('members.api_key').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  const { items, pagination } = await ctx.page(select, req);
  const used = await lastUses(
    ctx,
    items.map((r) => r.id),
  );
  return toPage(
    items.map((r) => view(r, used.get(r.id) ?? null)),
    pagination.total,
    req,
  );
}

export async function revokeApiKey(ctx: RequestContext, apiKeyId: string) {
  const row = await ctx.transaction(async (tx) => {
    const key = await tx.em.findOne(ApiKey, { id: apiKeyId });
    if (!key) throw notFound('API key');
    if (!key.revokedAt) {
      key.revokedAt = tx.now();
      // Refused by every process from the commit on, not when their caches expire.
      await announceRevocation(tx, { apiKey: key.id });
    }
    return key;
  });
  const used = await lastUses(ctx, [row.id]);
  return view(row, used.get(row.id) ?? null);
}

/** When each key was last used, recorded by the kernel as callers present it (one query per list). */
async function lastUses(ctx: RequestContext, ids: string[]): Promise<Map<string, Date>> {
  if (!ids.length) return new Map();
  const rows = await ctx.all(ctx.query.selectFrom('kernel.credential_use').select(['credentialId', 'lastUsedAt']).where('credentialId', '=', anyOf(ids)));
  // A table without an entity: its timestamp comes back as text, whatever its declared type.
  return new Map(rows.map((r) => [r.credentialId, new Date(r.lastUsedAt)]));
}

function view(
  row: Pick<ApiKey, 'id' | 'name' | 'prefix' | 'scopes' | 'toolsets' | 'readOnly' | 'createdAt' | 'revokedAt'>,
  lastUsedAt: Date | null,
): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    toolsets: row.toolsets ?? null,
    readOnly: row.readOnly,
    status: row.revokedAt ? 'REVOKED' : 'ACTIVE',
    createdAt: row.createdAt,
    lastUsedAt,
    revokedAt: row.revokedAt ?? null,
  };
}
