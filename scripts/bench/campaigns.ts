import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { createApp } from '../../router/app.ts';
import { loadConfig } from '../../subgraphs/kernel/config.ts';
import { caller, signUp, type GraphqlAnswer } from './seed.ts';
import { freePort, launch, waitUntil } from './proc.ts';
import { BenchDatabases } from './targets.ts';

/**
 * `npm run bench:campaigns`: a 10,000-recipient email campaign, from
 * `POST /v6/merchant/campaigns/{id}/send` to SENT, on PGlite and, with DATABASE_URL, on a fresh
 * PostgreSQL database, twice:
 * - in one process with the log provider (silent) and the rate lifted (CAMPAIGN_RATE_EMAIL=100000),
 *   so the figure is the sending machinery's own cost (at the default 10 per second a
 *   10,000-recipient campaign takes 1,000 s by design);
 * - on PostgreSQL, through a real SMTP server on loopback, the server a process of its own killed
 *   (SIGKILL) a third of the way through and started again: every recipient gets one message, and a message a
 *   worker had in flight at the kill, sent again, carries the same Message-ID (the count of
 *   repeats is printed; a receiving system drops them).
 * The audience is written straight into campaigns' projection (what members' events would have
 * written), to measure sending rather than signing up 10,000 customers.
 *
 *   BENCH_RECIPIENTS=10000  DATABASE_URL=postgres://…
 */
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
process.env.OUTBOX_LOG = 'silent';

/** What a measurement leaves ready to send: the company's key and its campaign to 10,000. */
interface Prepared {
  apiKey: string;
  campaignId: string;
}

/** A company with the audience and an email campaign to all of it, made by the server in this process. */
async function prepare(config: ReturnType<typeof loadConfig>): Promise<Prepared> {
  const app = await createApp(config);
  await new Promise<void>((r) => app.server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    const { apiKey, companyId } = await signUp(base, 'campaigns');
    const gql = graphql(base, apiKey);
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
    return { apiKey, campaignId: campaign.id };
  } finally {
    await app.close();
  }
}

function graphql(base: string, apiKey: string) {
  const call = caller(base);
  return async <T>(query: string, variables: Record<string, unknown> = {}) => {
    const json = await call<GraphqlAnswer<T>>('/graphql', { body: { query, variables }, headers: { authorization: `Bearer ${apiKey}` } });
    if (json.errors) throw new Error(`graphql: ${JSON.stringify(json.errors)}`);
    return json.data;
  };
}

/** Sends the campaign and waits for SENT; answers the seconds from the send. */
async function sendAndWait(base: string, { apiKey, campaignId }: Prepared, midway?: () => Promise<string | void>) {
  let gql = graphql(base, apiKey);
  const start = performance.now();
  await caller(base)(`/v6/merchant/campaigns/${campaignId}/send`, { body: {}, headers: { authorization: `Bearer ${apiKey}` } });
  for (;;) {
    const c = (
      await gql<{ campaign: { status: string; deliveries: { sent: number; total: number } } }>(
        'query($id: ID!) { campaign(campaignId: $id) { status deliveries { sent total } } }',
        { id: campaignId },
      )
    ).campaign;
    if (c.status === 'SENT') {
      if (c.deliveries.sent !== RECIPIENTS) throw new Error(`sent ${c.deliveries.sent} of ${RECIPIENTS}`);
      return (performance.now() - start) / 1000;
    }
    // A restarted server answers at an address of its own.
    const moved = await midway?.();
    if (moved) gql = graphql(moved, apiKey);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const settings = (dataDir: string, databaseUrl?: string): Record<string, string> => ({
  DATA_DIR: dataDir,
  NODE_ENV: 'development',
  OUTBOX_LOG: 'silent',
  // Ten thousand recipients are more than the free plan's emails a month; a load test's operator raises them.
  PLANS: JSON.stringify({ free: { limits: { emailMessagesPerMonth: 1_000_000, apiCallsPerMonth: 10_000_000, requestsPerMinute: 1_000_000 } } }),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});

async function measure(databaseUrl?: string): Promise<{ seconds: number; perSecond: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-campaigns-'));
  const config = loadConfig({ ...settings(dataDir, databaseUrl), PORT: '0', CAMPAIGN_RATE_EMAIL: '100000' });
  try {
    const prepared = await prepare(config);
    const app = await createApp(config);
    await new Promise<void>((r) => app.server.listen(0, '127.0.0.1', r));
    try {
      const seconds = await sendAndWait(`http://127.0.0.1:${(app.server.address() as { port: number }).port}`, prepared);
      return { seconds, perSecond: RECIPIENTS / seconds };
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface AcrossCrash {
  seconds: number;
  atKill: number;
  deliveries: number;
  distinct: number;
  recipients: number;
}

/** The same campaign through SMTP, its server killed a third of the way through and started again. */
async function measureAcrossCrash(databaseUrl?: string): Promise<AcrossCrash> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-campaigns-crash-'));
  const received: { messageId: string; to: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 4096) head += chunk.toString();
      });
      stream.on('end', () => {
        // A long header is folded onto the next line.
        const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1] ?? '';
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        // The owner's sign-up code comes this way too; only the campaign's readers count.
        if (to.endsWith('@bench.example')) received.push({ messageId, to });
        callback();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const env = {
    ...settings(dataDir, databaseUrl),
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`,
    MAIL_FROM: 'news@bench.example',
    // Fast enough to finish, slow enough to be killed partway.
    CAMPAIGN_RATE_EMAIL: '1000',
    // A worker's claim runs out 3 s after the kill, and is looked for every second.
    JOB_EXPIRE_SECONDS: '3',
    JOB_SUPERVISE_SECONDS: '1',
  };
  try {
    const prepared = await prepare(loadConfig({ ...env, PORT: '0' }));
    const start = async () => {
      const port = await freePort();
      const server = launch('campaigns', 'router', [], { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
      await waitUntil(server, async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok);
      return { server, base: `http://127.0.0.1:${port}` };
    };
    let current = await start();
    let atKill = 0;
    try {
      const seconds = await sendAndWait(current.base, prepared, async () => {
        if (atKill || received.length < RECIPIENTS / 3) return;
        await current.server.kill();
        atKill = received.length;
        current = await start();
        return current.base;
      });
      if (!atKill) throw new Error('the campaign finished before the kill');
      const distinct = new Set(received.map((m) => m.messageId)).size;
      const recipients = new Set(received.map((m) => m.to)).size;
      if (recipients !== RECIPIENTS || distinct !== RECIPIENTS) throw new Error(`${recipients} recipients and ${distinct} Message-IDs of ${RECIPIENTS}`);
      return { seconds, atKill, deliveries: received.length, distinct, recipients };
    } finally {
      await current.server.stop();
    }
  } finally {
    await new Promise<void>((r) => smtp.close(() => r()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// The crash runs on PostgreSQL only: the audience is seeded by this process and the server is then
// started as its own; on PGlite the second process did not find what the first wrote at 10,000
// recipients (it did at 2,000), which is left to look into (see the messaging issue's note).
const results: [string, { seconds: number; perSecond: number }, AcrossCrash | null][] = [['PGlite', await measure(), null]];
if (process.env.DATABASE_URL) {
  const databases = new BenchDatabases(process.env.DATABASE_URL);
  await databases.open();
  try {
    results.push(['PostgreSQL', await measure(await databases.create('campaigns')), await measureAcrossCrash(await databases.create('campaigns_crash'))]);
  } finally {
    await databases.close();
  }
}
const n = RECIPIENTS.toLocaleString('en');
console.log(`\nA ${n}-recipient email campaign (${new Date().toISOString().slice(0, 10)}):`);
for (const [name, r, crash] of results) {
  console.log(`  ${name.padEnd(11)} log provider, rate lifted: ${r.seconds.toFixed(1)} s (${Math.round(r.perSecond)} messages/s)`);
  if (crash)
    console.log(
      `  ${''.padEnd(11)} SMTP at 1,000/s, SIGKILL after ${crash.atKill.toLocaleString('en')}: ${crash.seconds.toFixed(1)} s; ${crash.recipients.toLocaleString('en')} recipients, ${crash.distinct.toLocaleString('en')} Message-IDs, ${crash.deliveries - crash.distinct} repeated under their Message-ID`,
    );
}
process.exit(0);
