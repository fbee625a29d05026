import { testServer } from './server.ts';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A plain HTTP call to the test server (or the server at `base`); JSON in and out. */
export async function http<T = any>(
  path: string,
  init: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string>; base?: string } = {},
): Promise<ApiResponse<T>> {
  const url = init.base ?? (await testServer()).url;
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  if (init.raw !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${url}${path}`, { method: init.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, headers: res.headers, body: parsed };
}

/** A GraphQL operation through the router. */
export async function graphql<T = any>(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return http<{ data?: T; errors?: { message: string; extensions?: Record<string, any> }[] }>('/graphql', {
    method: 'POST',
    body: { query, variables },
    headers,
  });
}

/**
 * The newest delivered message to an address, waiting for the outbox dispatcher (up to 15 s: on a
 * loaded machine with every test worker's queue busy, a delivery can take seconds).
 */
export async function lastMessage(to: string, since = 0, base?: string): Promise<{ subject: string; body: string; channel: string }> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
    const res = await http(`/dev/outbox?to=${encodeURIComponent(to)}`, { base });
    const items = res.body.data.items.filter((m: any) => new Date(m.createdAt).getTime() >= since);
    if (items.length) return items[0];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`No message delivered to ${to}`);
}

export async function lastCode(to: string, since = 0, base?: string): Promise<string> {
  const message = await lastMessage(to, since, base);
  const code = /\b(\d{6})\b/.exec(message.body)?.[1];
  if (!code) throw new Error(`No code in message to ${to}: ${message.body}`);
  return code;
}

let counter = 0;
/** A unique address for this worker and test. */
export const uniqueEmail = (label = 'user') => `${label}.${process.pid}.${Date.now()}.${++counter}@example.test`;
