import type { AddressInfo } from 'node:net';
import { toolDocument, SERVICES_QUERY } from './operations.ts';
import { tempDir } from './proc.ts';
import { seed } from './seed.ts';

export interface StatementCount {
  list: string;
  /** Statements per request at each list size. */
  counts: [small: number, large: number];
}

export const LIST_SIZES: [number, number] = [5, 20];

/**
 * SQL statements per list request at two list sizes, counted as the query-count tests count them
 * (test/support/sql.ts: the ORM's statement log around the second of two identical calls, outbox
 * polling left out), on an embedded server in this process (PGlite). Each figure is the least of
 * three measurements, so a background job's poll landing in the window does not count.
 */
export async function countStatements(): Promise<StatementCount[]> {
  const [{ createApp }, { loadConfig }, { statementsOf }] = await Promise.all([
    import('../../router/app.ts'),
    import('../../subgraphs/kernel/config.ts'),
    import('../../test/support/sql.ts'),
  ]);
  process.env.OUTBOX_LOG = 'silent';
  const log = console.log;
  console.log = () => {};
  const config = loadConfig({ ...process.env, DATABASE_URL: '', DATA_DIR: tempDir('bench-sql-'), NODE_ENV: 'development', OUTBOX_LOG: 'silent', PORT: '0' });
  const app = await createApp(config).finally(() => (console.log = log));
  try {
    await new Promise<void>((r) => app.server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const { companyId, apiKey } = await seed(base, 'sql');
    const tenant = { 'x-company-id': companyId };
    const merchant = { authorization: `Bearer ${apiKey}` };
    const send = async (path: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(base + path, {
        method: body ? 'POST' : 'GET',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (!res.ok || text.includes('"errors":[') || text.includes('"isError":true')) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
    };
    const lists: [string, (limit: number) => Promise<void>][] = [
      ['REST GET /v6/customer-portal/services', (n) => send(`/v6/customer-portal/services?limit=${n}`, tenant)],
      ['GraphQL services { price category staff }', (n) => send('/graphql', tenant, { query: SERVICES_QUERY, variables: { limit: n } })],
      [
        'MCP list_services',
        (n) => send('/mcp', merchant, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_services', arguments: { limit: n } } }),
      ],
      ['REST GET /v6/customer-portal/cms/posts', (n) => send(`/v6/customer-portal/cms/posts?limit=${n}`, tenant)],
      ['GraphQL list_posts (MCP operation)', (n) => send('/graphql', merchant, { query: toolDocument('list_posts'), variables: { limit: n } })],
    ];
    const out: StatementCount[] = [];
    for (const [list, call] of lists) {
      const count = async (n: number) => {
        let least = Infinity;
        for (let i = 0; i < 3; i++) least = Math.min(least, (await statementsOf(() => call(n))).length);
        return least;
      };
      out.push({ list, counts: [await count(LIST_SIZES[0]), await count(LIST_SIZES[1])] });
    }
    return out;
  } finally {
    await app.close();
  }
}
