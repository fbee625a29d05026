import { describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, signInCustomer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

describe('erasing a customer', () => {
  it('ends their sessions, tells content (no longer invitable), and is refused for another company', async () => {
    const company = await signupCompany('Erasure Studio');
    const merchant = await mcpClient(company.apiKey);
    const survey = await callTool(merchant, 'create_survey', { title: 'Poll', questions: [{ id: 'why', type: 'text', label: 'Why?' }], status: 'published' });
    const customer = await signInCustomer(company.companyId);
    // Content has the customer (members.customer.created reached it).
    await eventually(() => callTool(merchant, 'create_survey_invitations', { surveyId: survey.id, recipients: [customer.customerId] }), { tries: 20 });

    const other = await signupCompany('Erasure Other');
    const refused = await toolError(await mcpClient(other.apiKey), 'delete_customer', { customerId: customer.customerId });
    expect(refused.code).toBe('NOT_FOUND');

    expect(await callTool(merchant, 'delete_customer', { customerId: customer.customerId })).toEqual({ id: customer.customerId, deleted: true });
    const session = await http('/v6/customer-portal/auth/validate-token', { method: 'POST', body: {}, headers: bearer(customer.token) });
    expect(session.status).toBe(401);
    // members.customer.deleted reaches content: the id is no longer a customer of the company.
    await eventually(
      async () => {
        const error = await toolError(merchant, 'create_survey_invitations', { surveyId: survey.id, recipients: [customer.customerId] });
        expect(error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'recipients' } });
      },
      { tries: 20 },
    );
    expect((await toolError(merchant, 'delete_customer', { customerId: customer.customerId })).code).toBe('NOT_FOUND');
  });
});
