/** Organisation signup: a request emails a code; its verification creates the company, its first API key and a dashboard link. */
import type { RequestContext } from '../../kernel/context.ts';
import { conflict, notFound, reasonError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { enqueueMessage } from '../../kernel/outbox/index.ts';
import { otpCode, sha256 } from '../../kernel/tokens.ts';
import { SignupRequest } from '../entities/signup-request.ts';
import { mintApiKey } from './api-keys.ts';
import { createCompany } from './companies.ts';
import { enforceGuessLimit, enforceRequestLimit, OTP_TTL_MS, OTP_WINDOW_MS, spendSignupAttempt } from './otp-policy.ts';
import { createLoginLink } from './login-links.ts';

/** An organisation to sign up, as the edge checked it (resolvers/signup-request.inputs.ts): email lower-cased, country upper-cased. */
export interface NewSignup {
  email: string;
  organisationName: string;
  industry: string;
  country: string;
}

/** A signup request's id and the code emailed for it. */
export interface SignupVerification {
  requestId: string;
  code: string;
}

/** Organisation signup, step 1: remember the request and email a code to the owner. */
export async function requestSignup(ctx: RequestContext, input: NewSignup) {
  const { email, organisationName, industry, country } = input;
  const code = otpCode();
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + OTP_TTL_MS);
  const id = newId();
  await ctx.transaction(async (tx) => {
    await enforceRequestLimit(
      tx,
      `signup:${email}`,
      // Not a tenant table: the company does not exist yet.
      () =>
        tx.all(
          tx.query
            .selectFrom('members.signup_request')
            .select((e) => [e.fn.countAll<string | number>().as('n'), e.fn.min('createdAt').as('oldest')])
            .where('email', '=', email)
            .where('createdAt', '>', new Date(now.getTime() - OTP_WINDOW_MS)),
        ),
    );
    tx.em.create(SignupRequest, { id, email, organisationName, industry, country, codeHash: sha256(code), attempts: 0, expiresAt, createdAt: now });
    enqueueMessage(tx, {
      companyId: null,
      channel: 'email',
      to: email,
      subject: 'Your verification code',
      body: `Your code to create ${organisationName} is ${code}. It expires in 10 minutes.`,
    });
  });
  return { requestId: id, expiresAt };
}

/** Step 2: the right code creates the company, its first API key and a one-time dashboard link. */
export async function verifySignup(ctx: RequestContext, input: SignupVerification) {
  const request = await ctx.first(ctx.query.selectFrom('members.signup_request').selectAll().where('id', '=', input.requestId));
  if (!request) throw notFound('Signup request');
  if (request.completedAt) throw conflict('This signup has already been verified');
  if (request.expiresAt.getTime() <= ctx.now().getTime()) throw reasonError('EXPIRED_CODE', 'The code has expired; start the signup again');
  await enforceGuessLimit(() =>
    ctx.all(
      ctx.query
        .selectFrom('members.signup_request')
        .select((e) => e.fn.sum<string | number | null>('attempts').as('n'))
        .where('email', '=', request.email)
        .where('createdAt', '>', new Date(ctx.now().getTime() - 3600_000)),
    ),
  );
  const attempt = await spendSignupAttempt(ctx, request.id, input.code);
  if (attempt.result === 'exhausted') throw reasonError('ATTEMPTS_EXHAUSTED', 'Too many wrong attempts; start the signup again');
  if (attempt.result === 'wrong') throw reasonError('INVALID_CODE', 'The code is invalid', { attemptsRemaining: attempt.attemptsRemaining });

  return ctx.transaction(async (tx) => {
    const company = await createCompany(tx, {
      name: request.organisationName,
      industry: request.industry,
      country: request.country,
      ownerEmail: request.email,
    });
    const { numUpdatedRows: claimed } = await tx.query
      .updateTable('members.signup_request')
      .set({ completedAt: tx.now(), companyId: company.id })
      .where('id', '=', request.id)
      .where('completedAt', 'is', null)
      .executeTakeFirst();
    if (Number(claimed) !== 1) throw conflict('This signup has already been verified');
    // The new company's first key: made for that company, not the caller's (a signup has none).
    const { key } = mintApiKey(tx, 'Signup key', { companyId: company.id });
    const loginUrl = createLoginLink(tx, company.id, request.email);
    return { apiKey: key, companyId: company.id, loginUrl };
  });
}
