import { describe, expect, it } from 'vitest';
import { statementsOf } from '../support/sql.ts';
import { http } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient } from '../support/mcp.ts';

describe('SQL statements of content lists', () => {
  it('posts (type, category) and events (places left, registered) do not grow with the list', async () => {
    const measure = async (count: number) => {
      const company = await signupCompany(`Lists ${count}`);
      const merchant = await mcpClient(company.apiKey);
      const category = await callTool(merchant, 'create_category', { name: 'News' });
      for (let i = 0; i < count; i++) {
        const post = await callTool(merchant, 'create_post', { title: `Post ${i}`, categoryId: category.id });
        await callTool(merchant, 'update_post', { postId: post.id, status: 'published' });
        await callTool(merchant, 'create_event', {
          title: `Event ${i}`,
          startsAt: '2030-03-01T10:00:00Z',
          endsAt: '2030-03-01T11:00:00Z',
          capacity: 10,
          status: 'published',
        });
      }
      const customer = await signInCustomer(company.companyId);
      const h = { 'x-company-id': company.companyId };
      const posts = (
        await statementsOf(() =>
          http('/graphql', { body: { query: '{ cmsPosts(limit: 50) { items { id type category { name } blocks { id } } } }' }, headers: h }),
        )
      ).length;
      const events = (await statementsOf(() => http('/v6/customer-portal/events?limit=50', { headers: { ...h, ...bearer(customer.token) } }))).length;
      return { posts, events };
    };
    const few = await measure(2);
    const many = await measure(12);
    expect(few.posts).toBeGreaterThan(0);
    expect(many).toEqual(few);
  });
});
