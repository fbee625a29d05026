import { once } from 'node:events';
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DISCARD_LIMIT_BYTES } from '../../router/edge.ts';
import { http } from '../support/client.ts';
import { testServer } from '../support/server.ts';

const MB = 1024 * 1024;
const run = promisify(execFile);
/** The interfaces' body paths: a storefront route, a merchant tool's route, GraphQL and MCP. */
const PATHS = ['/v6/customer-portal/contact', '/v6/merchant/services', '/graphql', '/mcp'];

/**
 * Writes a body of `total` bytes on a raw socket (chunked or with the length `headers` declare,
 * honouring back-pressure) until it is all sent or the server closes the connection: how much was
 * accepted for sending, and the answer's status line.
 */
async function sendOnSocket(path: string, framing: 'chunked' | 'declared', total: number): Promise<{ written: number; statusLine: string }> {
  const { url } = await testServer();
  const socket: Socket = connect(Number(new URL(url).port), '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  let closed = false;
  socket.setEncoding('latin1');
  socket.on('data', (c: string) => (answer += c));
  socket.on('error', () => {}); // EPIPE or ECONNRESET once the server cuts the connection: expected here.
  const gone = new Promise<void>((resolve) => socket.once('close', () => resolve(void (closed = true))));
  const length = framing === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`;
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${length}\r\n\r\n`);
  const data = Buffer.alloc(MB, 'x');
  const chunk = framing === 'chunked' ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
  let written = 0;
  while (written < total && !closed) {
    written += data.length;
    if (!socket.write(chunk)) await Promise.race([once(socket, 'drain').catch(() => {}), gone]);
  }
  if (!closed) socket.end(framing === 'chunked' ? '0\r\n\r\n' : '');
  await gone;
  return { written, statusLine: answer.split('\r\n')[0] };
}

describe('an over-limit body is answered 413, not a broken pipe', () => {
  it('answers 8 MB sent by Node fetch from another process with 413 every time, declared or streamed, on every interface', async () => {
    const { url } = await testServer();
    const tries = 5;
    const client = fileURLToPath(new URL('../support/big-body-client.mjs', import.meta.url));
    const { stdout } = await run(process.execPath, [client, url, String(8 * MB), String(tries), ...PATHS]);
    const expected = Object.fromEntries(PATHS.flatMap((path) => ['declared', 'streamed'].map((how) => [`${how} ${path}: 413 PAYLOAD_TOO_LARGE`, tries])));
    expect(JSON.parse(stdout)).toEqual(expected);
    expect((await http('/healthz')).status).toBe(200);
  }, 120_000);

  it('reads a refused body within the discard limit to its end, and the connection serves the next request', async () => {
    const { url } = await testServer();
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    await once(socket, 'connect');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (answer += c));
    const size = 4 * MB;
    socket.write(`POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
    socket.write(Buffer.alloc(size, 'x'));
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await once(socket, 'close');
    const statuses = [...answer.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((m) => Number(m[1]));
    expect(statuses).toEqual([413, 200]);
    expect(answer).toContain('{"status":"ok"}');
  });

  it('cuts off a body far beyond the discard limit without reading it all, streamed or declared', async () => {
    const total = DISCARD_LIMIT_BYTES * 8;
    // Streamed: the answer as soon as it passes the body limit, the connection cut once the discard limit is passed.
    const chunked = await sendOnSocket('/graphql', 'chunked', total);
    expect(chunked.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(chunked.written).toBeLessThan(2 * DISCARD_LIMIT_BYTES);
    // Declared past the discard limit: answered and closed without reading any of it.
    const declared = await sendOnSocket('/v6/customer-portal/contact', 'declared', total);
    expect(declared.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(declared.written).toBeLessThan(DISCARD_LIMIT_BYTES);
    expect((await http('/healthz')).status).toBe(200);
  });
});
