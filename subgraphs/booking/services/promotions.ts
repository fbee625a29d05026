/**
 * A booking's promotion code. Promotions are commerce's: a booking takes a use through commerce's
 * published database function `commerce.take_promotion` (commerce/migrations/0004), inside the
 * booking's own transaction, so the use and the booking commit or roll back together and the
 * usage limit holds under concurrency; a cancelled booking gives it back through
 * `commerce.release_promotion`. Booking never reads or writes commerce's tables.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../kernel/context.ts';
import { promotionInvalid } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';

/** Takes a use of `code` for a booking of `amountMinor`; its discount, or 400 PROMOTION_INVALID with the errorCode. */
export async function takeBookingPromotion(
  tx: RequestContext,
  use: { code: string; amountMinor: number; customerKey: string | null; bookingId: string },
): Promise<number> {
  const taken = await tx.query
    .selectFrom(
      sql<{
        errorCode: string | null;
        discountMinor: string | number;
      }>`commerce.take_promotion(${tx.companyId}, ${use.code}, ${'booking'}, ${use.amountMinor}, ${use.customerKey}, ${newId()}, ${null}, ${use.bookingId}, ${0}, ${tx.now()})`.as(
        'taken',
      ),
    )
    .select(['taken.errorCode', 'taken.discountMinor'])
    .executeTakeFirstOrThrow();
  if (taken.errorCode) throw promotionInvalid(taken.errorCode);
  return Number(taken.discountMinor);
}

/** Gives back the use a cancelled booking took (nothing when it took none). */
export async function releaseBookingPromotion(tx: RequestContext, bookingId: string): Promise<void> {
  await tx.query.selectNoFrom(sql<number>`commerce.release_promotion(${tx.companyId}, ${null}, ${bookingId}, ${tx.now()})`.as('released')).execute();
}
