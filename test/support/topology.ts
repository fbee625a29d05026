import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { App } from '../../router/app.ts';
import { uniqueEmail, type ApiResponse } from './client.ts';
import { distributedServer } from './distributed.ts';
import { testServer } from './server.ts';

/**
 * What the suite's helpers (client.ts, fixtures.ts, mcp.ts) do against the worker's embedded
 * server, against any router: the embedded one or the distributed one (test/support/distributed.ts),
 * so that one flow runs on both and their answers can be compared.
 */
export interface Topology {
  name: 'embedded' | 'distributed';
  url: string;
  /** The router in this process (absent for a router process of its own). */
  app?: App;
  http<T = any>(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  /** A real MCP client of this router, with a Bearer credential. */
  mcp(token: string): Promise<Client>;
  /** The newest one-time code delivered to an address since `since` (the development outbox). */
  lastCode(to: string, since: number): Promise<string>;
  /** A fresh company through the organisation signup: its id and API key. */
  signupCompany(name: string): Promise<{ companyId: string; apiKey: string }>;
  /** A customer of a company signed in by OTP. */
  signInCustomer(companyId: string, email?: string): Promise<{ token: string; customerId: string; email: string }>;
}

/** The embedded topology, and the distributed one on PostgreSQL (DATABASE_URL), over the run's one database. */
export async function topologies(): Promise<Topology[]> {
  const embedded = await testServer();
  const distributed = await distributedServer();
  return [topology('embedded', embedded.url, embedded.app), topology('distributed', distributed.url, distributed.app)];
}

export function topology(name: Topology['name'], url: string, app?: App): Topology {
  const http: Topology['http'] = async (path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${url}${path}`, {
      method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, headers: res.headers, body };
  };
  const lastCode = async (to: string, since: number) => {
    for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
      const items = (await http(`/dev/outbox?to=${encodeURIComponent(to)}`)).body.data.items.filter((m: any) => new Date(m.createdAt).getTime() >= since);
      const code = items.length ? /\b(\d{6})\b/.exec(items[0].body)?.[1] : undefined;
      if (code) return code;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`No code delivered to ${to}`);
  };
  return {
    name,
    url,
    app,
    http,
    lastCode,
    async mcp(token) {
      const client = new Client({ name: `platform-tests-${name}`, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      // As test/support/mcp.ts: every later result is checked against its tool's outputSchema.
      await client.listTools();
      return client;
    },
    async signupCompany(organisationName) {
      const email = uniqueEmail(`owner-${name}`);
      const since = Date.now();
      const request = await http('/v6/dev/signup', { body: { email, organisationName, industry: 'salon', country: 'DE' } });
      if (request.status !== 200) throw new Error(`${name}: signup failed: ${JSON.stringify(request.body)}`);
      const verify = await http('/v6/dev/verify', { body: { requestId: request.body.data.requestId, code: await lastCode(email, since) } });
      if (verify.status !== 200) throw new Error(`${name}: verify failed: ${JSON.stringify(verify.body)}`);
      return verify.body.data;
    },
    async signInCustomer(companyId, email = uniqueEmail(`customer-${name}`)) {
      const headers = { 'x-company-id': companyId };
      const since = Date.now();
      const sent = await http('/v6/customer-portal/auth/otp', { body: { email }, headers });
      if (sent.status !== 200) throw new Error(`${name}: otp failed: ${JSON.stringify(sent.body)}`);
      const verified = await http('/v6/customer-portal/auth/otp/verify', { body: { email, code: await lastCode(email, since) }, headers });
      if (verified.status !== 200) throw new Error(`${name}: otp verify failed: ${JSON.stringify(verified.body)}`);
      return { token: verified.body.data.token, customerId: verified.body.data.customer.id, email };
    },
  };
}
