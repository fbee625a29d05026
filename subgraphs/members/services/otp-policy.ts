import type { RequestContext } from '../../kernel/context.ts';
import { rateLimited } from '../../kernel/errors.ts';
import { enforceWindowLimit, type WindowCount } from '../../kernel/rate-limit.ts';
import { sha256, sameHash } from '../../kernel/tokens.ts';

/** One policy for every emailed or texted code: customer sign-in and organisation signup. */
export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_MAX_REQUESTS = 5;
export const OTP_WINDOW_MS = 15 * 60 * 1000;

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
 * Spends one verify attempt of an organisation signup atomically (committed on its own, so a wrong
 * guess always counts) and compares the code. The request id is the requester's own, so its
 * answers may say how many attempts are left.
 */
export async function spendSignupAttempt(ctx: RequestContext, id: string, code: string): Promise<{ result: AttemptResult; attemptsRemaining: number }> {
  const row = await ctx.query
    .updateTable('members.signup_request')
    .set((e) => ({ attempts: e('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', OTP_MAX_ATTEMPTS)
    .returning(['attempts', 'codeHash'])
    .executeTakeFirst();
  if (!row) return { result: 'exhausted', attemptsRemaining: 0 };
  const attemptsRemaining = OTP_MAX_ATTEMPTS - row.attempts;
  return { result: sameHash(sha256(code), row.codeHash) ? 'ok' : 'wrong', attemptsRemaining };
}

/** Compared against when no code is open, so every answer costs the same work. */
const NO_CODE_HASH = sha256('no code is open for this address');

/**
 * Spends one attempt at an address's open sign-in code (the newest, unconsumed, unexpired, with
 * attempts left) in one statement committed on its own, so a wrong guess always counts; the id
 * of that code when `code` is right, null otherwise. Wrong, expired, exhausted and absent are one
 * result: the caller answers them alike and learns nothing else.
 */
export async function spendSignInAttempt(ctx: RequestContext, address: string, code: string): Promise<string | null> {
  const now = ctx.now();
  const row = await ctx.query
    .updateTable('members.otp_challenge')
    .set((e) => ({ attempts: e('attempts', '+', 1) }))
    .where('consumedAt', 'is', null)
    .where('expiresAt', '>', now)
    .where('attempts', '<', OTP_MAX_ATTEMPTS)
    .where('id', '=', (e) =>
      e.selectFrom('members.otp_challenge').select('id').where('address', '=', address).where('consumedAt', 'is', null).orderBy('createdAt', 'desc').limit(1),
    )
    .returning(['id', 'codeHash'])
    .executeTakeFirst();
  const right = sameHash(sha256(code), row?.codeHash ?? NO_CODE_HASH);
  return row && right ? row.id : null;
}
