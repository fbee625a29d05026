import { beforeAll, describe, expect, it } from 'vitest';
import { graphql, http, lastCode, lastMessage, uniqueEmail } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany, type Company } from '../support/fixtures.ts';
import { testServer } from '../support/server.ts';

const P = '/v6/customer-portal';

describe('member session routes', () => {
  let company: Company;
  let other: Company;
  let tenant: Record<string, string>;

  beforeAll(async () => {
    company = await signupCompany('Session Studio');
    other = await signupCompany('Other Studio');
    tenant = { 'x-company-id': company.companyId };
  });

  it('tells the login channel and the registration form', async () => {
    const channel = await http(`${P}/auth/login-channel`, { headers: tenant });
    expect(channel.status).toBe(200);
    expect(channel.body).toEqual({ success: true, data: { channel: 'email', companyId: company.companyId } });

    const form = await http(`${P}/auth/registration-form`, { headers: tenant });
    expect(form.status).toBe(200);
    expect(form.body.data.fields.map((f: any) => f.key)).toEqual(['name', 'lastName', 'email', 'phone']);
    expect(form.body.data.fields[0]).toMatchObject({ key: 'name', required: true });
  });

  it('needs a tenant on public routes and refuses an unknown or malformed one', async () => {
    const none = await http(`${P}/auth/login-channel`, { headers: { host: 'unknown.example' } });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'X-Company-Id' } });
    const unknown = await http(`${P}/auth/login-channel`, { headers: { 'x-company-id': '01900000-0000-7000-8000-000000000000' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    const malformed = await http(`${P}/auth/login-channel`, { headers: { 'x-company-id': 'nope' } });
    expect(malformed.status).toBe(400);
  });

  it('signs in by email code: passwordless sign-up, then the same customer again', async () => {
    const email = uniqueEmail('otp');
    const first = await signInCustomer(company.companyId, email);
    const again = await signInCustomer(company.companyId, email.toUpperCase());
    expect(again.customerId).toBe(first.customerId);
    const me = await graphql('{ currentCustomer { id email emailVerified } }', {}, bearer(again.token));
    expect(me.body.data?.currentCustomer).toEqual({ id: first.customerId, email, emailVerified: true });
  });

  it('answers an OTP request the same whether or not the address is registered', async () => {
    const known = await signInCustomer(company.companyId);
    const a = await http(`${P}/auth/otp`, { body: { email: known.email }, headers: tenant });
    const b = await http(`${P}/auth/otp`, { body: { email: uniqueEmail('stranger') }, headers: tenant });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(Object.keys(a.body.data).sort()).toEqual(Object.keys(b.body.data).sort());
    expect({ ...a.body.data, expiresAt: 0 }).toEqual({ ...b.body.data, expiresAt: 0 });
  });

  it('sends the code by SMS or WhatsApp to a phone, per the company channel', async () => {
    const phone = `+4915${String(Date.now()).slice(-8)}`;
    const since = Date.now();
    const sent = await http(`${P}/auth/otp`, { body: { phone: phone.replace('+49', '0049 ').replace('00', '+') }, headers: tenant });
    expect(sent.status).toBe(200);
    expect(sent.body.data.channel).toBe('sms');
    const message = await lastMessage(phone, since);
    expect(message.channel).toBe('sms');
    const code = /(\d{6})/.exec(message.body)![1];
    const verified = await http(`${P}/auth/otp/verify`, { body: { phone, code }, headers: tenant });
    expect(verified.status).toBe(200);
    expect(verified.body.data.customer).toMatchObject({ phone, phoneVerified: true });
  });

  it('refuses a wrong code; after the fifth wrong one even the right code is refused', async () => {
    const email = uniqueEmail('wrong');
    const since = Date.now();
    await http(`${P}/auth/otp`, { body: { email }, headers: tenant });
    const code = await lastCode(email, since);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await http(`${P}/auth/otp/verify`, { body: { email, code: wrong }, headers: tenant });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'UNAUTHENTICATED', message: 'The code is invalid or has expired; request a new one' });
      expect(res.body.error.details).toEqual({ reason: 'INVALID_CODE' });
    }
    // Exhausted answers as a wrong code does (test/members/otp-answers.test.ts).
    const exhausted = await http(`${P}/auth/otp/verify`, { body: { email, code }, headers: tenant });
    expect(exhausted.status).toBe(401);
    expect(exhausted.body.error).toMatchObject({ code: 'UNAUTHENTICATED', details: { reason: 'INVALID_CODE' } });
  });

  it('stops guessing at 10 wrong codes per address per hour, across codes', async () => {
    const email = uniqueEmail('slow-brute');
    for (let round = 0; round < 2; round++) {
      const since = Date.now();
      await http(`${P}/auth/otp`, { body: { email }, headers: tenant });
      const code = await lastCode(email, since);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) expect((await http(`${P}/auth/otp/verify`, { body: { email, code: wrong }, headers: tenant })).status).toBe(401);
    }
    const since = Date.now();
    await http(`${P}/auth/otp`, { body: { email }, headers: tenant });
    const code = await lastCode(email, since);
    const locked = await http(`${P}/auth/otp/verify`, { body: { email, code }, headers: tenant });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('RATE_LIMITED');
  });

  it('refuses an expired code', async () => {
    const email = uniqueEmail('expired');
    const since = Date.now();
    await http(`${P}/auth/otp`, { body: { email }, headers: tenant });
    const code = await lastCode(email, since);
    const { app } = await testServer();
    await app.platform.runtime.db.orm.em
      .getConnection()
      .execute(`update members.otp_challenge set expires_at = now() - interval '1 second' where address = ?`, [email]);
    const res = await http(`${P}/auth/otp/verify`, { body: { email, code }, headers: tenant });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'UNAUTHENTICATED', details: { reason: 'INVALID_CODE' } });
  });

  it('a code is good once, and only for its own company', async () => {
    const email = uniqueEmail('once');
    const since = Date.now();
    await http(`${P}/auth/otp`, { body: { email }, headers: tenant });
    const code = await lastCode(email, since);
    const elsewhere = await http(`${P}/auth/otp/verify`, { body: { email, code }, headers: { 'x-company-id': other.companyId } });
    expect(elsewhere.status).toBe(401);
    expect((await http(`${P}/auth/otp/verify`, { body: { email, code }, headers: tenant })).status).toBe(200);
    expect((await http(`${P}/auth/otp/verify`, { body: { email, code }, headers: tenant })).status).toBe(401);
  });

  it('allows 5 code requests per address per 15 minutes, then 429', async () => {
    const email = uniqueEmail('limit');
    const results = await Promise.all(Array.from({ length: 7 }, () => http(`${P}/auth/otp`, { body: { email }, headers: tenant })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = results.find((r) => r.status === 429)!;
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(limited.body.error.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(limited.headers.get('retry-after')).toBe(String(limited.body.error.details.retryAfterSeconds));
    // Another company's limit for the same address is its own.
    expect((await http(`${P}/auth/otp`, { body: { email }, headers: { 'x-company-id': other.companyId } })).status).toBe(200);
  });

  it('validates OTP bodies and names the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'email'],
      [{ email: 'not-an-email' }, 'email'],
      [{ phone: '12' }, 'phone'],
    ];
    for (const [body, field] of cases) {
      const res = await http(`${P}/auth/otp`, { body, headers: tenant });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: 'BAD_USER_INPUT', details: { field } } });
    }
    const noCode = await http(`${P}/auth/otp/verify`, { body: { email: uniqueEmail() }, headers: tenant });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.details.field).toBe('code');
    const shortCode = await http(`${P}/auth/otp/verify`, { body: { email: uniqueEmail(), code: '12' }, headers: tenant });
    expect(shortCode.body.error.details.field).toBe('code');
    const wrongType = await http(`${P}/auth/otp/verify`, { body: { email: uniqueEmail(), code: 123456 }, headers: tenant });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.details.field).toBe('code');
    const notJson = await http(`${P}/auth/otp`, { raw: '{"email":', headers: tenant });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ success: false, error: { code: 'BAD_USER_INPUT', details: { field: 'body' } } });
    const notObject = await http(`${P}/auth/otp`, { raw: '[1,2]', headers: tenant });
    expect(notObject.status).toBe(400);
  });

  it('registers a member with data.member and data.token; duplicates are 409', async () => {
    const email = uniqueEmail('reg');
    const res = await http(`${P}/auth/register`, {
      body: { name: 'Ada', lastName: 'Lovelace', email, phone: '+44 20 7946 0000', source: 'storefront' },
      headers: tenant,
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data.member).toMatchObject({
      name: 'Ada',
      lastName: 'Lovelace',
      email,
      phone: '+442079460000',
      source: 'storefront',
      companyId: company.companyId,
    });
    expect(res.body.data.member.id).toMatch(/^[0-9a-f-]{36}$/);
    const token = res.body.data.token;
    expect((await http(`${P}/auth/validate-token`, { method: 'POST', headers: bearer(token) })).body.data.customer.id).toBe(res.body.data.member.id);

    const dupEmail = await http(`${P}/auth/register`, { body: { name: 'Ada', email: email.toUpperCase() }, headers: tenant });
    expect(dupEmail.status).toBe(409);
    expect(dupEmail.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'email' } });
    const dupPhone = await http(`${P}/auth/register`, { body: { name: 'Ada', phone: '+442079460000' }, headers: tenant });
    expect(dupPhone.status).toBe(409);
    expect(dupPhone.body.error.details.field).toBe('phone');
    // The same person may be a member of another company.
    expect((await http(`${P}/auth/register`, { body: { name: 'Ada', email }, headers: { 'x-company-id': other.companyId } })).status).toBe(201);
  });

  it('validates registration and honours the configured form', async () => {
    const noName = await http(`${P}/auth/register`, { body: { email: uniqueEmail() }, headers: tenant });
    expect(noName.status).toBe(400);
    expect(noName.body.error.details.field).toBe('name');
    const noContact = await http(`${P}/auth/register`, { body: { name: 'X' }, headers: tenant });
    expect(noContact.status).toBe(400);
    expect(noContact.body.error.details.field).toBe('email');

    const strict = await signupCompany('Strict Form');
    const update = await graphql(
      `
        mutation ($f: [RegistrationFieldInput!]) {
          updateCompanySettings(input: { registrationFields: $f }) {
            registrationFields {
              key
              required
            }
          }
        }
      `,
      {
        f: [
          { key: 'phone', label: 'Phone', type: 'phone', required: true },
          { key: 'level', label: 'Level', type: 'select', options: ['beginner', 'pro'] },
        ],
      },
      bearer(strict.apiKey),
    );
    expect(update.body.data?.updateCompanySettings.registrationFields).toEqual([
      { key: 'name', required: true },
      { key: 'phone', required: true },
      { key: 'level', required: false },
    ]);
    const h = { 'x-company-id': strict.companyId };
    const missingPhone = await http(`${P}/auth/register`, { body: { name: 'Y', email: uniqueEmail() }, headers: h });
    expect(missingPhone.status).toBe(400);
    expect(missingPhone.body.error.details.field).toBe('phone');
    const badChoice = await http(`${P}/auth/register`, { body: { name: 'Y', phone: '+15550001111', attributes: { level: 'guru' } }, headers: h });
    expect(badChoice.body.error.details.field).toBe('level');
    const ok = await http(`${P}/auth/register`, { body: { name: 'Y', phone: '+15550001111', attributes: { level: 'pro' } }, headers: h });
    expect(ok.status).toBe(201);
    expect(ok.body.data.member.attributes).toEqual({ level: 'pro' });
  });

  it('verifying an address ends sessions someone else opened by registering it first', async () => {
    const email = uniqueEmail('victim');
    const squatter = await http(`${P}/auth/register`, { body: { name: 'Not the owner', email }, headers: tenant });
    expect(squatter.status).toBe(201);
    const owner = await signInCustomer(company.companyId, email);
    expect(owner.customerId).toBe(squatter.body.data.member.id);
    expect((await http(`${P}/auth/validate-token`, { method: 'POST', headers: bearer(squatter.body.data.token) })).status).toBe(401);
    expect((await http(`${P}/auth/refresh`, { method: 'POST', headers: bearer(squatter.body.data.token) })).status).toBe(401);
    expect((await http(`${P}/auth/validate-token`, { method: 'POST', headers: bearer(owner.token) })).status).toBe(200);
  });

  it('refresh rotates the token: the old one is refused, the new one works', async () => {
    const { token } = await signInCustomer(company.companyId);
    const refreshed = await http(`${P}/auth/refresh`, { method: 'POST', headers: bearer(token) });
    expect(refreshed.status).toBe(200);
    const next = refreshed.body.data.token;
    expect(next).not.toBe(token);
    const old = await http(`${P}/auth/validate-token`, { method: 'POST', headers: bearer(token) });
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('UNAUTHENTICATED');
    expect((await http(`${P}/auth/refresh`, { method: 'POST', headers: bearer(token) })).status).toBe(401);
    const valid = await http(`${P}/auth/validate-token`, { method: 'POST', headers: bearer(next) });
    expect(valid.status).toBe(200);
    expect(valid.body.data.valid).toBe(true);
  });

  it('logout ends the session everywhere: REST, GraphQL and public routes', async () => {
    const { token } = await signInCustomer(company.companyId);
    expect((await http(`${P}/auth/logout`, { method: 'POST', headers: bearer(token) })).body).toEqual({ success: true, data: { loggedOut: true } });
    expect((await http(`${P}/auth/validate-token`, { method: 'POST', headers: bearer(token) })).status).toBe(401);
    expect((await http(`${P}/auth/logout`, { method: 'POST', headers: bearer(token) })).status).toBe(401);
    const gql = await graphql('{ currentCustomer { id } }', {}, bearer(token));
    expect(gql.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await http(`${P}/auth/login-channel`, { headers: { ...tenant, ...bearer(token) } })).status).toBe(401);
  });

  it('customer routes need a customer token; garbage and merchant keys are refused', async () => {
    expect((await http(`${P}/auth/validate-token`, { method: 'POST' })).status).toBe(401);
    expect((await http(`${P}/auth/validate-token`, { method: 'POST', headers: bearer('garbage') })).status).toBe(401);
    expect((await http(`${P}/auth/validate-token`, { method: 'POST', headers: { authorization: 'Basic abc' } })).status).toBe(401);
    const asMerchant = await http(`${P}/auth/validate-token`, { method: 'POST', headers: bearer(company.apiKey) });
    expect(asMerchant.status).toBe(401);
  });

  it('a customer token never works for another company', async () => {
    const { token } = await signInCustomer(company.companyId);
    const cross = await http(`${P}/auth/validate-token`, { method: 'POST', headers: { ...bearer(token), 'x-company-id': other.companyId } });
    expect(cross.status).toBe(401);
    expect(cross.body.error.code).toBe('UNAUTHENTICATED');
    const gql = await graphql('{ loginChannel { companyId } }', {}, { ...bearer(token), 'x-company-id': other.companyId });
    expect(gql.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    // On another company's storefront domain too.
    const host = `shop-${Date.now()}.example.test`;
    await graphql('mutation($d: String!) { addStorefrontDomain(input: { domain: $d }) { id } }', { d: host }, bearer(other.apiKey));
    const onDomain = await http(`${P}/auth/validate-token`, { method: 'POST', headers: { ...bearer(token), 'x-forwarded-host': host } });
    expect(onDomain.status).toBe(401);
    // The token of the same company is fine with its own header.
    expect((await http(`${P}/auth/validate-token`, { method: 'POST', headers: { ...bearer(token), ...tenant } })).status).toBe(200);
  });
});
