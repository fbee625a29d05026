import { describe, expect, it } from 'vitest';
import { signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient } from '../support/mcp.ts';

/** Slugs under concurrency: the unique indexes decide (on PostgreSQL the writes really race). */
describe('slug races', () => {
  it('gives concurrent rows of one title their own slugs, in every titled kind', async () => {
    const company = await signupCompany('Slug Race');
    const merchant = await mcpClient(company.apiKey);
    const at = { startsAt: '2030-05-01T10:00:00Z', endsAt: '2030-05-01T11:00:00Z' };
    const kinds: [string, Record<string, unknown>][] = [
      ['create_event', { title: 'Race Night', ...at }],
      ['create_survey', { title: 'Race Poll' }],
      ['create_page', { title: 'Race Page' }],
      ['create_category', { name: 'Race Category' }],
    ];
    for (const [tool, args] of kinds) {
      const rows = await Promise.all(Array.from({ length: 6 }, () => callTool(merchant, tool, args)));
      expect(new Set(rows.map((r: any) => r.slug)).size, tool).toBe(6);
    }
  });

  it('answers 409 naming slug to all but one of concurrent writes of one explicit slug', async () => {
    const company = await signupCompany('Explicit Race');
    const merchant = await mcpClient(company.apiKey);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => merchant.callTool({ name: 'create_post', arguments: { title: `Taken ${i}`, slug: 'the-one' } })),
    );
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    const errors = results.filter((r) => r.isError).map((r) => JSON.parse((r.content as any[])[0].text).error);
    expect(errors).toHaveLength(5);
    for (const error of errors) expect(error).toMatchObject({ code: 'CONFLICT', details: { field: 'slug' } });
  });
});
