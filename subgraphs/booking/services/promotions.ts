/**
 * A booking's promotion code. Promotions are commerce's: a booking takes a use through commerce's
 * published database function `commerce.take_promotion` (commerce/migrations/0004), inside the
 * booking's own transaction, so the use and the booking commit or roll back together and the
 * usage limit holds under concurrency; a cancelled booking gives it back through
 * `commerce.release_promotion`. Booking never reads or writes commerce's tables.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { promotionInvalid } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { COMPANY } from '../../kernel/tenancy.ts';

/** Takes a use of `code` for a booking of `amountMinor`; its discount, or 400 PROMOTION_INVALID with the errorCode. */
export async function takeBookingPromotion(tx: RequestContext, use: { code: string; amountMinor: number; customerKey: string | null; bookingId: string }): Promise<number> {
  const [taken] = await tx.tenantSql<{ error_code: string | null; discount_minor: string | number }>`
    select error_code, discount_minor from commerce.take_promotion(${COMPANY}, ${use.code}, ${'booking'}, ${use.amountMinor}, ${use.customerKey}, ${newId()}, ${null}, ${use.bookingId}, ${0}, ${tx.now()})`;
  if (taken.error_code) throw promotionInvalid(taken.error_code);
  return Number(taken.discount_minor);
}

/** Gives back the use a cancelled booking took (nothing when it took none). */
export async function releaseBookingPromotion(tx: RequestContext, bookingId: string): Promise<void> {
  await tx.tenantSql`select commerce.release_promotion(${COMPANY}, ${null}, ${bookingId}, ${tx.now()})`;
}
