/** Customers: sign-in by one-time code, registration, the signed-in customer and their token's lifecycle. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound, reasonError, unauthenticated } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { enqueueMessage } from '../../kernel/outbox/index.ts';
import { otpCode, sha256 } from '../../kernel/tokens.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { Customer } from '../entities/customer.ts';
import { OtpChallenge } from '../entities/otp-challenge.ts';
import { customerFacts } from '../events.ts';
import { getCompany } from './companies.ts';
import { enforceGuessLimit, enforceRequestLimit, OTP_TTL_MS, OTP_WINDOW_MS, spendSignInAttempt } from './otp-policy.ts';
import { issueSession, revokeCustomerSessions, revokeSession, type IssuedSession } from './sessions.ts';

/** Where a sign-in code goes, normalised by the edge (resolvers/customer.inputs.ts): an email, or else a phone. */
export interface SignInAddress {
  email?: string;
  phone?: string;
}

/** An address and the 6-digit code sent to it. */
export interface SignInCode extends SignInAddress {
  code: string;
}

/** A member registering on the storefront; the edge normalised email and phone. */
export interface Registration {
  name: string;
  lastName?: string;
  email?: string;
  phone?: string;
  source?: string;
  /** Answers to the company's form fields beyond name, lastName, email and phone. */
  attributes?: Record<string, unknown> | null;
}

/** The one address a merchant looks a customer up by, matched exactly. */
export type CustomerLookup = { email: string; phone?: undefined } | { phone: string; email?: undefined };

type Address = { channel: 'email' | 'sms' | 'whatsapp'; address: string; field: 'email' | 'phone' };

/**
 * The address a code goes to: an email for email sign-in, a phone for SMS or WhatsApp (the
 * company's phone channel). When neither is given, the error names the company's login channel.
 */
function addressOf(company: RowOf<'members.company'>, input: SignInAddress): Address {
  if (input.email) return { channel: 'email', address: input.email, field: 'email' };
  if (input.phone) return { channel: company.loginChannel === 'whatsapp' ? 'whatsapp' : 'sms', address: input.phone, field: 'phone' };
  throw badInput(company.loginChannel === 'email' ? 'email' : 'phone', 'is required to send a code');
}

export async function requestOtp(ctx: RequestContext, input: SignInAddress) {
  const company = await getCompany(ctx);
  const target = addressOf(company, input);
  const code = otpCode();
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + OTP_TTL_MS);
  await ctx.transaction(async (tx) => {
    await enforceRequestLimit(tx, `otp:${company.id}:${target.address}`, () =>
      tx.all(
        tx.query
          .selectFrom('members.otp_challenge')
          .select((e) => [e.fn.countAll<string | number>().as('n'), e.fn.min('createdAt').as('oldest')])
          .where('address', '=', target.address)
          .where('createdAt', '>', new Date(now.getTime() - OTP_WINDOW_MS)),
      ),
    );
    // A new code replaces any earlier one still open for the address.
    await tx.query
      .updateTable('members.otp_challenge')
      .set({ consumedAt: now })
      .where('address', '=', target.address)
      .where('consumedAt', 'is', null)
      .execute();
    tx.em.create(OtpChallenge, {
      id: newId(),
      channel: target.channel,
      address: target.address,
      codeHash: sha256(code),
      attempts: 0,
      expiresAt,
      createdAt: now,
    });
    enqueueMessage(tx, {
      companyId: company.id,
      channel: target.channel,
      to: target.address,
      subject: `Your ${company.name} sign-in code`,
      body: `Your ${company.name} sign-in code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this message.`,
      confidential: true,
    });
  });
  // The same answer whether or not the address belongs to a customer.
  return { sent: true, channel: target.channel, expiresAt };
}

/**
 * The one answer to every code that does not sign in: wrong, already used, expired, out of
 * attempts, or no code open for the address at all. Telling them apart (a count of attempts left,
 * another status) would tell anyone who types an address whether its owner is signing in.
 */
const codeRefused = () => reasonError('INVALID_CODE', 'The code is invalid or has expired; request a new one');

export async function verifyOtp(ctx: RequestContext, input: SignInCode) {
  const company = await getCompany(ctx);
  const target = addressOf(company, input);
  // The hourly limit first, whatever the address's codes: its answer does not depend on them either.
  await enforceGuessLimit(() =>
    ctx.all(
      ctx.query
        .selectFrom('members.otp_challenge')
        .select((e) => e.fn.sum<string | number | null>('attempts').as('n'))
        .where('address', '=', target.address)
        .where('createdAt', '>', new Date(ctx.now().getTime() - 3600_000)),
    ),
  );
  const challengeId = await spendSignInAttempt(ctx, target.address, input.code);
  if (!challengeId) throw codeRefused();
  const result = await ctx.transaction(async (tx) => {
    const now = tx.now();
    const { numUpdatedRows: consumed } = await tx.query
      .updateTable('members.otp_challenge')
      .set({ consumedAt: now })
      .where('id', '=', challengeId)
      .where('consumedAt', 'is', null)
      .executeTakeFirst();
    if (Number(consumed) !== 1) throw codeRefused();
    const where = target.field === 'email' ? { email: target.address } : { phone: target.address };
    let customer = await tx.em.findOne(Customer, where);
    const isNewCustomer = !customer;
    if (!customer) {
      // Passwordless sign-up: a verified address with no customer becomes one.
      const name = target.field === 'email' ? target.address.split('@')[0] : target.address;
      customer = tx.em.create(Customer, { id: newId(), name, ...where, source: 'otp' });
    }
    // The first proof of an address ends sessions opened before it (a registration made by someone
    // else with this address must not keep access once the owner verifies it).
    const firstProof = target.field === 'email' ? !customer.emailVerifiedAt : !customer.phoneVerifiedAt;
    if (firstProof && !isNewCustomer) await revokeCustomerSessions(tx, customer.id);
    if (target.field === 'email') customer.emailVerifiedAt ??= now;
    else customer.phoneVerifiedAt ??= now;
    const session = await issueSession(tx, 'customer', company.id, customer.id, verifiedContacts(customer));
    if (isNewCustomer) tx.publish('members.customer.created', customerFacts(customer));
    else if (firstProof) tx.publish('members.customer.updated', customerFacts(customer));
    return { ...sessionView(session), customer, isNewCustomer };
  });
  return result;
}

export async function registerCustomer(ctx: RequestContext, input: Registration) {
  const company = await getCompany(ctx);
  const { name, lastName, email, phone, source } = input;
  if (!email && !phone) throw badInput(company.loginChannel === 'email' ? 'email' : 'phone', 'an email or a phone is required to sign in later');
  const attributes = input.attributes ?? {};
  const given: Record<string, unknown> = { name, lastName, email, phone, ...attributes };
  for (const field of company.registrationFields) {
    const value = given[field.key];
    if (field.required && (value === undefined || value === null || value === '')) throw badInput(field.key, 'is required');
    if (field.type === 'select' && value != null && value !== '' && !field.options?.includes(String(value)))
      throw badInput(field.key, `must be one of ${field.options?.join(', ')}`);
  }
  const known = new Set(company.registrationFields.map((f) => f.key));
  for (const key of Object.keys(attributes)) if (!known.has(key)) throw badInput(`attributes.${key}`, 'is not a field of this registration form');
  return ctx.transaction(async (tx) => {
    const customer = tx.em.create(Customer, {
      id: newId(),
      name,
      lastName,
      email,
      phone,
      source,
      attributes: Object.keys(attributes).length ? attributes : null,
    });
    const session = await issueSession(tx, 'customer', company.id, customer.id);
    tx.publish('members.customer.created', customerFacts(customer));
    return { member: customer, ...sessionView(session) };
  });
}

export async function currentCustomer(ctx: RequestContext) {
  const customer = await ctx.first(ctx.query.selectFrom('members.customer').selectAll().where('id', '=', ctx.customer.customerId));
  if (!customer) throw unauthenticated('This customer no longer exists');
  return customer;
}

export async function validateToken(ctx: RequestContext) {
  const customer = await currentCustomer(ctx);
  const session = await ctx.first(ctx.query.selectFrom('members.session').select('expiresAt').where('id', '=', ctx.customer.sessionId));
  if (!session) throw unauthenticated('Session has ended; sign in again');
  return { valid: true, customer, expiresAt: session.expiresAt };
}

/** Rotates the session: the presented token ends and a new one is issued. */
export async function refreshSession(ctx: RequestContext) {
  const customer = await currentCustomer(ctx);
  const p = ctx.customer;
  return ctx.transaction(async (tx) => {
    const session = await issueSession(tx, 'customer', p.companyId, customer.id, verifiedContacts(customer));
    await tx.em.flush();
    if (!(await revokeSession(tx, p.sessionId, session.sessionId))) throw unauthenticated('Session has ended; sign in again');
    return { ...sessionView(session), customer };
  });
}

export async function logout(ctx: RequestContext) {
  const p = ctx.customer;
  await ctx.transaction(async (tx) => {
    await revokeSession(tx, p.sessionId);
  });
  return { loggedOut: true };
}

/**
 * Erases a customer: the row goes, their sessions end (refused by every process from the commit
 * on), and `members.customer.deleted` tells the other subgraphs (content drops its projection).
 * Another company's id is NOT_FOUND.
 */
export async function deleteCustomer(ctx: RequestContext, customerId: string) {
  return ctx.transaction(async (tx) => {
    const customer = await tx.em.findOne(Customer, { id: customerId });
    if (!customer) throw notFound('Customer');
    await revokeCustomerSessions(tx, customer.id);
    tx.em.remove(customer);
    tx.publish('members.customer.deleted', { customerId: customer.id });
    return { id: customer.id, deleted: true };
  });
}

export async function loginChannel(ctx: RequestContext) {
  const company = await getCompany(ctx);
  return { channel: company.loginChannel, companyId: company.id };
}

export async function registrationForm(ctx: RequestContext) {
  const company = await getCompany(ctx);
  return { companyId: company.id, fields: company.registrationFields };
}

const verifiedContacts = (c: Pick<Customer, 'email' | 'phone' | 'emailVerifiedAt' | 'phoneVerifiedAt'>) => ({
  email: c.emailVerifiedAt ? (c.email ?? undefined) : undefined,
  phone: c.phoneVerifiedAt ? (c.phone ?? undefined) : undefined,
});

function sessionView(session: IssuedSession) {
  return { token: session.token, expiresAt: session.expiresAt };
}

/**
 * A customer session opened on the merchant's word (the legacy member-token adapter): the merchant
 * already knows who the member is. Another company's customer is NOT_FOUND.
 */
export async function issueCustomerToken(ctx: RequestContext, customerId: string) {
  return ctx.transaction(async (tx) => {
    const customer = await tx.first(tx.query.selectFrom('members.customer').selectAll().where('id', '=', customerId));
    if (!customer) throw notFound('Customer');
    const session = await issueSession(tx, 'customer', customer.companyId, customer.id, verifiedContacts(customer));
    return { ...sessionView(session), customer };
  });
}

/** The company's customers with exactly this email or phone (the legacy member-search adapter): no partial matches. */
export async function findCustomers(ctx: RequestContext, input: CustomerLookup) {
  const select = ctx.query.selectFrom('members.customer').selectAll().orderBy('id').limit(10);
  return ctx.all(input.email != null ? select.where('email', '=', input.email) : select.where('phone', '=', input.phone));
}

/**
 * A customer another subgraph refers to, for the router: merchants see their customers, a customer
 * only themself; anyone else gets null. Batched with every other reference in the request.
 */
export async function referencedCustomer(ctx: RequestContext, customerId: string): Promise<RowOf<'members.customer'> | null> {
  const p = ctx.principal;
  if (p.kind !== 'merchant' && !(p.kind === 'customer' && p.customerId === customerId)) return null;
  return ctx.find('members.customer', customerId);
}
