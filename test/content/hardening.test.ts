import { describe, expect, it } from 'vitest';
import { graphql, http, uniqueEmail } from '../support/client.ts';
import { bearer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

const P = '/v6/customer-portal';

async function studio(name: string) {
  const company = await signupCompany(name);
  return { company, merchant: await mcpClient(company.apiKey), h: { 'x-company-id': company.companyId } };
}

describe('content edge cases', () => {
  it("a survey token of one company never widens another merchant's query to that company", async () => {
    const a = await studio('Token Owner');
    const b = await studio('Token Holder');
    await callTool(a.merchant, 'create_post', { title: 'A secret draft' });
    const survey = await callTool(a.merchant, 'create_survey', { title: 'Poll', questions: [{ type: 'text', label: 'Why?' }], status: 'published' });
    const [invitation] = (await callTool(a.merchant, 'create_survey_invitations', { surveyId: survey.id, recipients: [uniqueEmail()] })).result;
    const mixed = await graphql(
      'query($t: String!) { invitedSurvey(token: $t) { invitationId } posts { items { title } } postTypes { id } }',
      { t: invitation.token },
      bearer(b.company.apiKey),
    );
    expect(mixed.body.data.invitedSurvey.invitationId).toBe(invitation.invitationId);
    expect(mixed.body.data.posts.items).toEqual([]);
    // The token of a survey taken back to draft shows nothing.
    await callTool(a.merchant, 'update_survey', { surveyId: survey.id, status: 'draft' });
    expect((await http(`${P}/surveys/token/${invitation.token}`)).status).toBe(404);
  });

  it('answers 400, not 500, for NUL characters and reserved names', async () => {
    const { merchant, h } = await studio('Odd Input');
    expect((await http(`${P}/cms/posts?search=%00`, { headers: h })).status).toBe(400);
    expect((await http(`${P}/cms/posts/a%00b`, { headers: h })).status).toBe(400);
    expect((await http(`${P}/contact`, { body: { name: 'X', email: uniqueEmail(), message: 'nul\u0000here' }, headers: h })).body.error).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: { field: 'message' },
    });
    const nulBlock = await toolError(merchant, 'create_post', { title: 'Nul', blocks: [{ type: 'paragraph', data: { text: 'a\u0000b' } }] });
    expect(nulBlock.code).toBe('BAD_USER_INPUT');
    for (const type of ['__proto__', 'constructor', 'toString']) {
      expect((await toolError(merchant, 'create_post', { title: 'Proto', blocks: [{ type, data: {} }] })).details.field).toBe('blocks[0].type');
    }
    const type = await callTool(merchant, 'create_post_type', { key: 'thing', label: 'Thing' });
    expect(
      (await toolError(merchant, 'create_post_type_field', { postTypeId: type.id, key: 'constructor', label: 'C', fieldType: 'text' })).details.field,
    ).toBe('key');
    expect((await toolError(merchant, 'create_survey', { title: 'S', questions: [{ id: '__proto__', type: 'text', label: 'L' }] })).details.field).toBe(
      'questions[0].id',
    );
  });

  it('gives every concurrent post of one title its own slug', async () => {
    const { merchant } = await studio('Same Titles');
    const posts = await Promise.all(Array.from({ length: 6 }, () => callTool(merchant, 'create_post', { title: 'Same Title' })));
    expect(new Set(posts.map((p) => p.slug)).size).toBe(6);
    expect(posts.map((p) => p.slug)).toContain('same-title');
  });

  it('makes slugs readable and reachable in any script', async () => {
    const { merchant, h } = await studio('Scripts');
    const hangul = await callTool(merchant, 'create_post', { title: '안녕하세요 세계' });
    expect(hangul.slug).toBe('안녕하세요-세계'.normalize('NFC'));
    await callTool(merchant, 'update_post', { postId: hangul.id, status: 'published' });
    expect((await http(`${P}/cms/posts/${encodeURIComponent('안녕하세요-세계')}`, { headers: h })).status).toBe(200);
    expect((await callTool(merchant, 'create_post', { title: 'नमस्ते दुनिया' })).slug).toBe('नमस्ते-दुनिया');
    const japanese = await callTool(merchant, 'create_post', { title: 'ニュース 速報' });
    expect(japanese.slug).toBe('ニュース-速報');
    expect((await callTool(merchant, 'update_post', { postId: japanese.id, slug: 'ニュース' })).slug).toBe('ニュース');
  });

  it('keeps an anonymous customerId as a claim, hides unpublished events from the access route, escapes search, pages categories', async () => {
    const { merchant, h } = await studio('Claims');
    const survey = await callTool(merchant, 'create_survey', { title: 'Claim', questions: [{ type: 'text', label: 'Hi' }], status: 'published' });
    const victim = '01900000-0000-7000-8000-00000000abcd';
    const res = await http(`${P}/surveys/${survey.id}/responses`, { body: { answers: { q1: 'hello' }, customerId: victim }, headers: h });
    expect(res.body.data).toMatchObject({ customerId: null, metadata: { claimedCustomerId: victim } });

    const event = await callTool(merchant, 'create_event', {
      title: 'Soon hidden',
      startsAt: '2030-02-01T10:00:00Z',
      endsAt: '2030-02-01T11:00:00Z',
      status: 'published',
    });
    const reg = await http(`${P}/event-registrations`, { body: { eventId: event.id, name: 'R', email: uniqueEmail() }, headers: h });
    await callTool(merchant, 'update_event', { eventId: event.id, status: 'draft', description: 'secret plans' });
    const access = await http(`${P}/event-registrations/${reg.body.data.id}/access`, { headers: h });
    expect(access.body.data).toMatchObject({ granted: false, reason: 'EVENT_UNAVAILABLE', event: null });
    const closed = await http(`${P}/event-registrations`, { body: { eventId: event.id, name: 'R', email: uniqueEmail() }, headers: h });
    expect(closed.status).toBe(404);

    await http(`${P}/contact`, { body: { name: 'Percent', email: uniqueEmail(), message: 'hello' }, headers: h });
    expect((await callTool(merchant, 'list_contact_inquiries', { search: '%' })).items).toEqual([]);
    expect((await callTool(merchant, 'list_contact_inquiries', { search: 'perc' })).items).toHaveLength(1);

    for (const name of ['A', 'B', 'C']) await callTool(merchant, 'create_category', { name });
    const page = await http(`${P}/cms/categories?limit=2&page=2`, { headers: h });
    expect(page.body.data.items.map((c: any) => c.name)).toEqual(['C']);
    expect(page.body.data.pagination).toMatchObject({ total: 3, totalPages: 2, hasNextPage: false });
  });

  it('limits contact messages per phone too, whatever email comes with it', async () => {
    const { h } = await studio('Phone Limit');
    const phone = '+15550109999';
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await http(`${P}/contact`, { body: { name: 'P', email: uniqueEmail(), phone, message: `m${i}` }, headers: h })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
