import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SIGNUP_TOOLS } from '../../facades/mcp/guide.ts';
import { signupCompany } from '../support/fixtures.ts';
import { testServer } from '../support/server.ts';

const run = promisify(execFile);

/** The MCP Inspector's own command line (@modelcontextprotocol/inspector), as a developer runs it. */
const INSPECTOR_CLI = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js');

async function inspector(url: string, args: string[]) {
  // Its catalog of servers is a file it writes: a fresh one, not the developer's home.
  const catalog = join(mkdtempSync(join(tmpdir(), 'inspector-')), 'mcp.json');
  try {
    const { stdout, stderr } = await run(process.execPath, [INSPECTOR_CLI, `${url}/mcp`, '--transport', 'http', ...args], {
      env: { ...process.env, MCP_CATALOG_PATH: catalog, NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * The real MCP Inspector CLI against the server: it lists every tool with its schemas and reports
 * no schema-portability finding, even with --strict (which fails on any), with a key and without;
 * it calls a tool with the key.
 */
describe('the MCP Inspector CLI', () => {
  it('lists every tool with no schema-portability warning (--strict), and calls one', async () => {
    const { url } = await testServer();
    const company = await signupCompany('Inspector Studio');
    const auth = ['--header', `Authorization: Bearer ${company.apiKey}`];

    const listed = await inspector(url, ['--method', 'tools/list', '--strict', ...auth]);
    expect(listed.stderr + listed.stdout).not.toMatch(/portability/i);
    expect(listed.code, listed.stderr).toBe(0);
    const { tools } = JSON.parse(listed.stdout);
    expect(tools.length).toBeGreaterThan(70);
    for (const tool of tools) {
      expect(tool.inputSchema?.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }

    const called = await inspector(url, ['--method', 'tools/call', '--tool-name', 'list_products', '--tool-arg', 'limit=5', ...auth]);
    expect(called.code, called.stderr).toBe(0);
    const result = JSON.parse(called.stdout);
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toMatchObject({ items: [], pagination: { limit: 5 } });

    // Without a key: the tools anyone may call (signing up a business), the same way.
    const anonymous = await inspector(url, ['--method', 'tools/list', '--strict']);
    expect(anonymous.code, anonymous.stderr).toBe(0);
    const open = JSON.parse(anonymous.stdout).tools.map((t: { name: string }) => t.name);
    expect(open.sort()).toEqual([...SIGNUP_TOOLS].sort());
  }, 60_000);
});
