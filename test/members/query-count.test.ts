import { describe, expect, it } from 'vitest';
import { statementsOf } from '../support/sql.ts';
import { signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient } from '../support/mcp.ts';

describe('SQL statements per operation', () => {
  it('list_api_keys sends the same statements for 2 keys as for 25 (no per-key query)', async () => {
    const small = await signupCompany('Few Keys');
    const large = await signupCompany('Many Keys');
    const clientSmall = await mcpClient(small.apiKey);
    const clientLarge = await mcpClient(large.apiKey);
    await callTool(clientSmall, 'create_api_key', { name: 'one more' });
    for (let i = 0; i < 24; i++) await callTool(clientLarge, 'create_api_key', { name: `key ${i}` });
    const few = await statementsOf(() => callTool(clientSmall, 'list_api_keys'));
    const many = await statementsOf(() => callTool(clientLarge, 'list_api_keys', { limit: 100 }));
    expect((await callTool(clientLarge, 'list_api_keys', { limit: 100 })).items).toHaveLength(25);
    expect(many.length).toBe(few.length);
    expect(few.length).toBeGreaterThan(0);
    expect(many.length).toBeLessThanOrEqual(4);
  });
});
