import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { testServer } from '../support/server.ts';

const run = promisify(execFile);
const cli = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The official MCP conformance scenarios that apply to a stateless tools-only server. */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'dns-rebinding-protection'];

describe('MCP conformance', () => {
  it.each(SCENARIOS)('%s passes', async (scenario) => {
    const { url } = await testServer();
    const mcpUrl = `${url.replace('127.0.0.1', 'localhost')}/mcp`;
    const { stdout } = await run(process.execPath, [cli, 'server', '--url', mcpUrl, '--scenario', scenario], {
      cwd: mkdtempSync(join(tmpdir(), 'mcp-conformance-')),
      timeout: 60_000,
    }).catch((e) => e);
    const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stdout ?? '');
    expect(summary, stdout).not.toBeNull();
    expect(Number(summary![3]), stdout).toBe(0);
    expect(Number(summary![1])).toBeGreaterThan(0);
  });
});
