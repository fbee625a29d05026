import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { RequestContext } from '../../kernel/context.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { newId } from '../../kernel/ids.ts';
import { StorefrontDomain } from '../entities/company.ts';
import { mintApiKey } from './api-keys.ts';
import { createCompany } from './companies.ts';

/**
 * On the first start with an empty database, outside production: a demo company served on
 * `localhost`, and its API key printed once and written to DATA_DIR/demo-credentials.json. In
 * production a company with a key in the log would be a way in; companies come from signup.
 */
export async function seedDemoCompany(runtime: Runtime): Promise<void> {
  const { config } = runtime;
  if (config.production) return;
  const ctx = RequestContext.system(runtime, null);
  // Not a tenant table: read with no company in scope.
  const anyCompany = (c: RequestContext) => c.first(c.query.selectFrom('members.company').select('id'));
  if (await anyCompany(ctx)) return;
  const created = await ctx.transaction(async (tx) => {
    await tx.query.selectNoFrom(sql<void>`pg_advisory_xact_lock(hashtext('members.demo'))`.as('locked')).execute();
    if (await anyCompany(tx)) return null;
    const company = await createCompany(tx, { name: 'Demo Studio', industry: 'salon', country: 'US', ownerEmail: 'owner@demo.localhost' });
    // The seed runs with no tenant in scope: its rows name the company it just created.
    tx.em.create(StorefrontDomain, { id: newId(), companyId: company.id, host: 'localhost' });
    const { key } = mintApiKey(tx, 'Demo key', { companyId: company.id });
    return { companyId: company.id, apiKey: key, storefrontDomain: 'localhost' };
  });
  if (!created) return;
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'demo-credentials.json');
  writeFileSync(file, JSON.stringify(created, null, 2) + '\n', { mode: 0o600 });
  console.log(`Demo company created (shown once, also in ${file}):\n  companyId: ${created.companyId}\n  apiKey:    ${created.apiKey}`);
}
