import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../router/app.ts';
import { loadConfig } from '../subgraphs/kernel/config.ts';

/**
 * `npm run bench`: starts the embedded server on a fresh database (PGlite, or DATABASE_URL) and
 * prints throughput and latency of a few storefront and merchant operations. Figures only: it
 * asserts nothing. BENCH_SECONDS and BENCH_CONCURRENCY tune it.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
process.env.OUTBOX_LOG = 'silent';

const config = { ...loadConfig({ ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')), PORT: '0', NODE_ENV: 'development' }) };
const app = await createApp(config);
await new Promise<void>((r) => app.server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(base + path, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const json: any = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function gql(query: string, variables: Record<string, unknown>, key: string) {
  const json = await call('/graphql', { body: { query, variables }, headers: { authorization: `Bearer ${key}` } });
  if (json.errors) throw new Error(JSON.stringify(json.errors));
  return json.data;
}

// A company with 2 staff, 20 services and 20 published posts.
const signup = await call('/v6/dev/signup', { body: { email: 'bench@example.test', organisationName: 'Bench', industry: 'salon', country: 'DE' } });
const outbox = await call('/dev/outbox?to=bench@example.test');
const code = /(\d{6})/.exec(outbox.data.items[0].body)![1];
const { apiKey, companyId } = (await call('/v6/dev/verify', { body: { requestId: signup.data.requestId, code } })).data;
const staffIds: string[] = [];
for (const name of ['Ana', 'Ben']) {
  const { createStaffMember } = await gql('mutation($n: String!) { createStaffMember(input: { name: $n }) { id } }', { n: name }, apiKey);
  for (let d = 0; d < 7; d++) await gql('mutation($m: ID!, $d: Int) { setStaffAvailability(input: { memberId: $m, dayOfWeek: $d, startTime: "08:00", endTime: "20:00" }) { id } }', { m: createStaffMember.id, d }, apiKey);
  staffIds.push(createStaffMember.id);
}
let serviceId = '';
for (let i = 0; i < 20; i++) {
  const { createService } = await gql(
    'mutation($n: String!, $s: [ID!]) { createService(input: { name: $n, durationMinutes: 30, price: "20", capacity: 1, staffIds: $s, minimumNoticeMinutes: 0 }) { id } }',
    { n: `Service ${i}`, s: staffIds },
    apiKey,
  );
  serviceId ||= createService.id;
}
for (let i = 0; i < 20; i++) {
  await gql('mutation($t: String!) { createPost(input: { title: $t, status: published, blocks: [{ type: "paragraph", data: { text: "Hello" } }] }) { id } }', { t: `Post ${i}` }, apiKey);
}
const tenant = { 'x-company-id': companyId };
const day = new Date(Date.now() + 3 * 86400000).toISOString().slice(0, 10);

async function measure(name: string, op: (i: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let n = 0;
  let failures = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        try {
          await op(n++);
        } catch {
          failures++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
  console.log(`${name.padEnd(42)} ${(latencies.length / seconds).toFixed(0).padStart(6)} req/s   p50 ${q(0.5).padStart(6)} ms   p95 ${q(0.95).padStart(6)} ms${failures ? `   (${failures} refused)` : ''}`);
}

console.log(`${app.platform.runtime.db.kind}, ${concurrency} concurrent clients, ${seconds} s each`);
await measure('GET /healthz', () => call('/healthz'));
await measure('GET services (20, with staff)', () => call('/v6/customer-portal/services', { headers: tenant }));
await measure('GET slots of a day', () => call(`/v6/customer-portal/services/${serviceId}/slots?date=${day}`, { headers: tenant }));
await measure('GET cms posts (20)', () => call('/v6/customer-portal/cms/posts', { headers: tenant }));
await measure('GraphQL services { staff resources }', () => call('/graphql', { body: { query: '{ services(limit: 50) { items { id name staff { id } resources { id } } } }' }, headers: tenant }));
await measure('POST guest booking (taken slots refused)', async (i) => {
  const slots = (await call(`/v6/customer-portal/services/${serviceId}/slots?date=${day}`, { headers: tenant })).data.items;
  if (!slots.length) return;
  const slot = slots[i % slots.length];
  await call('/v6/customer-portal/bookings/guest', {
    body: { serviceId, occurrenceStart: slot.start, occurrenceEnd: slot.end, customerName: 'Bench', customerPhone: '+15550000000' },
    headers: tenant,
  });
});
await app.close();
