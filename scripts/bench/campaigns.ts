import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../router/app.ts';
import { loadConfig } from '../../subgraphs/kernel/config.ts';
import { caller, signUp, type GraphqlAnswer } from './seed.ts';
import { BenchDatabases } from './targets.ts';

/**
 * `npm run bench:campaigns`: how long a 10,000-recipient email campaign takes to send, from
 * `POST /v6/merchant/campaigns/{id}/send` to SENT, with the log transport (silent), on PGlite and,
 * with DATABASE_URL, on a fresh PostgreSQL database. The rate limit is lifted
 * (CAMPAIGN_RATE_EMAIL=100000) so the figure is the sending machinery's own cost; at the default
 * 10 per second a 10,000-recipient campaign takes 1,000 s by design. The audience is written
 * straight into campaigns' projection (what members' events would have written), to measure
 * sending rather than signing up 10,000 customers.
 *
 *   BENCH_RECIPIENTS=10000  DATABASE_URL=postgres://…
 */
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
process.env.OUTBOX_LOG = 'silent';

async function measure(databaseUrl?: string): Promise<{ seconds: number; perSecond: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-campaigns-'));
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      PORT: '0',
      CAMPAIGN_RATE_EMAIL: '100000',
      // Ten thousand recipients are more than the free plan's emails a month; a load test's operator raises them.
      PLANS: JSON.stringify({ free: { limits: { emailMessagesPerMonth: 1_000_000 } } }),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
  };
  const app = await createApp(config);
  await new Promise<void>((r) => app.server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    const call = caller(base);
    const { apiKey, companyId } = await signUp(base, 'campaigns');
    const key = { authorization: `Bearer ${apiKey}` };
    const gql = async <T>(query: string, variables: Record<string, unknown> = {}) => {
      const json = await call<GraphqlAnswer<T>>('/graphql', { body: { query, variables }, headers: key });
      if (json.errors) throw new Error(`graphql: ${JSON.stringify(json.errors)}`);
      return json.data;
    };

    // The audience, as members' events would have projected it.
    await app.platform.runtime.db.orm.em.getConnection().execute(
      `insert into campaigns.audience (company_id, customer_id, first_name, last_name, email, phone, tags, orders_count, spent, created_at, updated_at)
       select ?, gen_random_uuid(), 'Reader' || n, null, 'reader' || n || '@bench.example', null, '{}', 0, 0, now(), now() from generate_series(1, ?) n`,
      [companyId, RECIPIENTS],
    );
    const segment = (
      await gql<{ createCustomerSegment: { id: string; memberCount: number } }>(
        'mutation { createCustomerSegment(input: { name: "Everyone", rules: { reachableBy: email } }) { id memberCount } }',
      )
    ).createCustomerSegment;
    if (segment.memberCount !== RECIPIENTS) throw new Error(`segment holds ${segment.memberCount}`);
    const campaign = (
      await gql<{ createCampaign: { id: string } }>(
        `mutation($s: ID!) { createCampaign(input: { name: "Bench", channel: email, segmentId: $s, channelConfig: { subject: "Hello {{firstName}}", html: "<p>Hi {{firstName}}</p>" } }) { id } }`,
        { s: segment.id },
      )
    ).createCampaign;
    const start = performance.now();
    await call(`/v6/merchant/campaigns/${campaign.id}/send`, { body: {}, headers: key });
    for (;;) {
      const c = (
        await gql<{ campaign: { status: string; deliveries: { sent: number; total: number } } }>(
          'query($id: ID!) { campaign(campaignId: $id) { status deliveries { sent total } } }',
          { id: campaign.id },
        )
      ).campaign;
      if (c.status === 'SENT') {
        if (c.deliveries.sent !== RECIPIENTS) throw new Error(`sent ${c.deliveries.sent} of ${RECIPIENTS}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - start) / 1000;
    return { seconds, perSecond: RECIPIENTS / seconds };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: [string, { seconds: number; perSecond: number }][] = [['PGlite', await measure()]];
if (process.env.DATABASE_URL) {
  const databases = new BenchDatabases(process.env.DATABASE_URL);
  await databases.open();
  try {
    results.push(['PostgreSQL', await measure(await databases.create('campaigns'))]);
  } finally {
    await databases.close();
  }
}
console.log(`\nA ${RECIPIENTS.toLocaleString('en')}-recipient email campaign, log transport, rate limit lifted (${new Date().toISOString().slice(0, 10)}):`);
for (const [name, r] of results) console.log(`  ${name.padEnd(11)} ${r.seconds.toFixed(1)} s  (${Math.round(r.perSecond)} messages/s)`);
process.exit(0);
