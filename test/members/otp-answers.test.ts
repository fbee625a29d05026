import { beforeAll, describe, expect, it } from 'vitest';
import { graphql, http, lastCode, uniqueEmail, type ApiResponse } from '../support/client.ts';
import { signupCompany, type Company } from '../support/fixtures.ts';
import { testServer } from '../support/server.ts';

const P = '/v6/customer-portal';

/**
 * Verifying a sign-in code answers every failure alike, so that typing someone's address with a
 * guessed code says nothing about whether they are signing in: a wrong code, no code at all, an
 * expired, used, replaced or exhausted one, another company's. The limits still hold.
 */
describe('OTP verification answers', () => {
  let company: Company;
  let other: Company;
  let tenant: Record<string, string>;

  beforeAll(async () => {
    company = await signupCompany('Quiet Codes');
    other = await signupCompany('Other Codes');
    tenant = { 'x-company-id': company.companyId };
  });

  const requestCode = async (email: string, headers = tenant) => {
    const since = Date.now();
    expect((await http(`${P}/auth/otp`, { body: { email }, headers })).status).toBe(200);
    return lastCode(email, since);
  };
  const verify = (email: string, code: string, headers = tenant) => http(`${P}/auth/otp/verify`, { body: { email, code }, headers });
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
  /** All a client can tell from an answer (but the id every answer has for support). */
  const seen = (res: ApiResponse) => ({
    status: res.status,
    body: withoutRequestId(res.body),
    retryAfter: res.headers.get('retry-after'),
    wwwAuthenticate: res.headers.get('www-authenticate'),
    contentType: res.headers.get('content-type'),
  });
  const withoutRequestId = (body: any) => (body?.error ? { ...body, error: { ...body.error, requestId: undefined } } : body);
  const expire = async (email: string) => {
    const { app } = await testServer();
    await app.platform.runtime.db.orm.em
      .getConnection()
      .execute(`update members.otp_challenge set expires_at = now() - interval '1 second' where company_id = ? and address = ?`, [company.companyId, email]);
  };

  it('answers a wrong, absent, expired, used, replaced, exhausted or foreign code the same', async () => {
    const answers: Record<string, ApiResponse> = {};

    const pending = uniqueEmail('pending');
    const pendingCode = await requestCode(pending);
    answers.wrong = await verify(pending, wrongFor(pendingCode));

    answers.none = await verify(uniqueEmail('nobody'), '123456');

    const expired = uniqueEmail('expired');
    const expiredCode = await requestCode(expired);
    await expire(expired);
    answers.expired = await verify(expired, expiredCode);

    const used = uniqueEmail('used');
    const usedCode = await requestCode(used);
    expect((await verify(used, usedCode)).status).toBe(200);
    answers.used = await verify(used, usedCode);

    const replaced = uniqueEmail('replaced');
    const firstCode = await requestCode(replaced);
    const secondCode = await requestCode(replaced);
    answers.replaced = await verify(replaced, firstCode === secondCode ? wrongFor(secondCode) : firstCode);

    const exhausted = uniqueEmail('exhausted');
    const exhaustedCode = await requestCode(exhausted);
    for (let i = 0; i < 5; i++) expect((await verify(exhausted, wrongFor(exhaustedCode))).status).toBe(401);
    answers.exhausted = await verify(exhausted, exhaustedCode);

    const foreign = uniqueEmail('foreign');
    const foreignCode = await requestCode(foreign, { 'x-company-id': other.companyId });
    answers.foreign = await verify(foreign, foreignCode);

    const expected = {
      status: 401,
      body: {
        success: false,
        error: { code: 'UNAUTHENTICATED', message: 'The code is invalid or has expired; request a new one', details: { reason: 'INVALID_CODE' } },
      },
    };
    for (const [name, answer] of Object.entries(answers)) {
      expect(seen(answer), name).toEqual(seen(answers.none));
      expect(seen(answer), name).toMatchObject(expected);
    }
    // The wrong guess did not spoil the pending code.
    expect((await verify(pending, pendingCode)).status).toBe(200);
  });

  it('answers the same over GraphQL, with no count of attempts left', async () => {
    const pending = uniqueEmail('gql-pending');
    const code = await requestCode(pending);
    const run = (email: string, guess: string) =>
      graphql('mutation($i: OtpVerifyInput!) { verifyCustomerOtp(input: $i) { token } }', { i: { email, code: guess } }, tenant);
    const wrong = await run(pending, wrongFor(code));
    const none = await run(uniqueEmail('gql-nobody'), wrongFor(code));
    const errors = (res: typeof wrong) => res.body.errors?.map((e) => ({ ...e, extensions: { ...e.extensions, requestId: undefined } }));
    expect(wrong.status).toBe(none.status);
    expect(wrong.body.data).toEqual(none.body.data);
    expect(errors(wrong)).toEqual(errors(none));
    expect(errors(wrong)?.[0].extensions).toEqual({ code: 'UNAUTHENTICATED', reason: 'INVALID_CODE' });
  });

  it('still spends attempts: five wrong guesses end a code, and a new code works', async () => {
    const email = uniqueEmail('spent');
    const code = await requestCode(email);
    for (let i = 0; i < 5; i++) expect((await verify(email, wrongFor(code))).status).toBe(401);
    expect((await verify(email, code)).status).toBe(401);
    const next = await requestCode(email);
    const signedIn = await verify(email, next);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.customer.email).toBe(email);
  });

  it('still stops at 10 wrong guesses an hour, whatever state the codes are in', async () => {
    const email = uniqueEmail('locked');
    for (let round = 0; round < 2; round++) {
      const code = await requestCode(email);
      for (let i = 0; i < 5; i++) expect((await verify(email, wrongFor(code))).status).toBe(401);
    }
    // The exhausted code, then a fresh right one, then an expired one: the same 429.
    const exhausted = await verify(email, '123456');
    const fresh = await verify(email, await requestCode(email));
    await expire(email);
    const expired = await verify(email, '123456');
    for (const answer of [exhausted, fresh, expired]) {
      expect(answer.status).toBe(429);
      expect(answer.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 3600 } });
      expect(withoutRequestId(answer.body)).toEqual(withoutRequestId(exhausted.body));
    }
  });
});
