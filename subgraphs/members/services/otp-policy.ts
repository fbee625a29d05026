import type { RequestContext } from '../../kernel/context.ts';
import { badInput, rateLimited } from '../../kernel/errors.ts';
import { enforceWindowLimit, type WindowCount } from '../../kernel/rate-limit.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import { sha256, sameHash } from '../../kernel/tokens.ts';

/** One policy for every emailed or texted code: customer sign-in and organisation signup. */
export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_MAX_REQUESTS = 5;
export const OTP_WINDOW_MS = 15 * 60 * 1000;

export function requireCode(code: unknown): string {
  if (typeof code !== 'string' || !/^\d{6}$/.test(code.trim())) throw badInput('code', 'must be the 6-digit code that was sent');
  return code.trim();
}

/** Refuses a sixth code for one address within the window. Call inside the transaction that records it. */
export function enforceRequestLimit(tx: RequestContext, lockKey: string, count: () => Promise<WindowCount[]>): Promise<void> {
  return enforceWindowLimit(tx, { lockKey, count, max: OTP_MAX_REQUESTS, windowMs: OTP_WINDOW_MS, message: 'Too many codes requested for this address' });
}

/** Wrong guesses allowed per address per hour, across all its codes (a slow brute force stops here). */
export const OTP_MAX_GUESSES_PER_HOUR = 10;

/**
 * Refuses verification once an address has used up its hourly guesses over all its codes.
 * `count` sums the attempts of the address's challenges created in the last hour.
 */
export async function enforceGuessLimit(count: () => Promise<{ n: string | number | null }[]>): Promise<void> {
  const [row] = await count();
  if (Number(row?.n ?? 0) >= OTP_MAX_GUESSES_PER_HOUR) {
    throw rateLimited('Too many wrong codes for this address; try again in an hour', 3600);
  }
}

export type AttemptResult = 'ok' | 'wrong' | 'exhausted';

/**
 * Spends one verify attempt atomically (committed on its own, so a wrong guess always counts)
 * and compares the code: of a customer's sign-in code (a tenant row of the context's company) or
 * of an organisation signup (no company yet).
 */
export async function spendAttempt(ctx: RequestContext, table: 'otp_challenge' | 'signup_request', id: string, code: string): Promise<{ result: AttemptResult; attemptsRemaining: number }> {
  type Spent = { attempts: number; code_hash: string };
  const rows =
    table === 'otp_challenge'
      ? await ctx.tenantSql<Spent>`update members.otp_challenge set attempts = attempts + 1
          where company_id = ${COMPANY} and id = ${id} and attempts < ${OTP_MAX_ATTEMPTS} returning attempts, code_hash`
      : await ctx.sql<Spent>('update members.signup_request set attempts = attempts + 1 where id = ? and attempts < ? returning attempts, code_hash', [id, OTP_MAX_ATTEMPTS]);
  if (!rows.length) return { result: 'exhausted', attemptsRemaining: 0 };
  const attemptsRemaining = OTP_MAX_ATTEMPTS - rows[0].attempts;
  return { result: sameHash(sha256(code), rows[0].code_hash) ? 'ok' : 'wrong', attemptsRemaining };
}
