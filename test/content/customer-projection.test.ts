import { describe, expect, it } from 'vitest';
import { content } from '../../subgraphs/content/index.ts';
import { graphql, http, uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, signInCustomer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';

const P = '/v6/customer-portal';

async function studio(name: string) {
  const company = await signupCompany(name);
  const merchant = await mcpClient(company.apiKey);
  const survey = await callTool(merchant, 'create_survey', { title: 'Poll', questions: [{ id: 'why', type: 'text', label: 'Why?' }], status: 'published' });
  return { company, merchant, survey, h: { 'x-company-id': company.companyId } };
}

/** Invites the customer (one members has but content's projection not yet is asked of members at once). */
const invitable = (s: Awaited<ReturnType<typeof studio>>, customerId: string) =>
  callTool(s.merchant, 'create_survey_invitations', { surveyId: s.survey.id, recipients: [customerId] });

async function sql<R = any>(text: string, params: unknown[] = []): Promise<R[]> {
  const { app } = await testServer();
  return app.platform.runtime.db.orm.em.getConnection().execute<R[]>(text, params);
}

describe("content's projection of customers", () => {
  it('makes a customer invitable once they sign up, by OTP or by registration', async () => {
    const s = await studio('Projection Studio');
    const otp = await signInCustomer(s.company.companyId);
    const [invitation] = (await invitable(s, otp.customerId)).result;
    expect(invitation).toMatchObject({ customerId: otp.customerId, email: null, surveyId: s.survey.id });

    const email = uniqueEmail('registered');
    const registered = await http(`${P}/auth/register`, { body: { name: 'Reggie', lastName: 'Stered', email }, headers: s.h });
    expect(registered.status).toBe(201);
    const customerId = registered.body.data.member.id;
    expect((await invitable(s, customerId)).result[0].customerId).toBe(customerId);
    // members' event fills the projection a moment later.
    await eventually(async () => {
      const [row] = await sql(
        'select name, last_name, email, email_verified, phone_verified from content.customer_projection where company_id = ? and customer_id = ?',
        [s.company.companyId, customerId],
      );
      expect(row).toMatchObject({ name: 'Reggie', last_name: 'Stered', email, email_verified: false, phone_verified: false });
    });

    // Proving the address later (members.customer.updated) updates the projected facts.
    expect((await signInCustomer(s.company.companyId, email)).customerId).toBe(customerId);
    await eventually(async () => {
      const [after] = await sql('select email_verified from content.customer_projection where company_id = ? and customer_id = ?', [
        s.company.companyId,
        customerId,
      ]);
      expect(after.email_verified).toBe(true);
    });
  });

  it("refuses another company's customer and unknown ids, naming recipients", async () => {
    const a = await studio('Projection A');
    const b = await studio('Projection B');
    const theirs = await signInCustomer(b.company.companyId);
    // Projected in B first, so A's refusal is not a matter of timing.
    await invitable(b, theirs.customerId);
    const ours = await signInCustomer(a.company.companyId);
    await invitable(a, ours.customerId);

    const foreign = await toolError(a.merchant, 'create_survey_invitations', { surveyId: a.survey.id, recipients: [ours.customerId, theirs.customerId] });
    expect(foreign).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'recipients', customerIds: [theirs.customerId] } });
    const unknown = '01900000-0000-7000-8000-0000000000ab';
    const stranger = await toolError(a.merchant, 'create_survey_invitations', { surveyId: a.survey.id, recipients: [unknown, uniqueEmail()] });
    expect(stranger).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'recipients', customerIds: [unknown] } });

    // Through GraphQL too; nothing was issued for the refused batches.
    const gql = await graphql(
      'mutation($s: ID!, $r: [String!]!) { createSurveyInvitations(surveyId: $s, recipients: $r) { invitationId } }',
      { s: a.survey.id, r: [theirs.customerId] },
      bearer(a.company.apiKey),
    );
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'recipients' });
    const [{ n }] = await sql('select count(*)::int as n from content.survey_invitation where survey_id = ?', [a.survey.id]);
    expect(n).toBe(1);
  });

  it('backfills customers that existed before the projection, once', async () => {
    const s = await studio('Backfill Studio');
    const customer = await signInCustomer(s.company.companyId);
    await invitable(s, customer.customerId);
    const { app } = await testServer();
    const runtime = app.platform.runtime;
    const projected = async () =>
      (await sql('select customer_id from content.customer_projection where company_id = ?', [s.company.companyId])).map((r) => r.customer_id);
    // members' event has been handled (it would otherwise put the row back after the delete below).
    await eventually(async () => expect(await projected()).toEqual([customer.customerId]));

    // As if the customer predated the projection: the marker says the backfill is done, so a restart leaves it out.
    await sql('delete from content.customer_projection where company_id = ?', [s.company.companyId]);
    await content.onStart!(runtime);
    expect(await projected()).toEqual([]);

    // Not done yet: two processes starting at once copy it once.
    await sql("delete from content.backfill where name = 'customer_projection'");
    await Promise.all([content.onStart!(runtime), content.onStart!(runtime)]);
    expect(await projected()).toEqual([customer.customerId]);
    expect(await sql("select name from content.backfill where name = 'customer_projection'")).toHaveLength(1);
    await invitable(s, customer.customerId);
  });
});
