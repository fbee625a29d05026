import type { RequestContext } from '../../kernel/context.ts';

export interface ShopSettingsValues {
  pricesIncludeTax: boolean;
  /** How long an order waits for its provider payment before it expires and frees its stock. */
  paymentWindowMinutes: number;
}

/** Without a row: prices exclude tax, and unpaid orders expire after 30 minutes (ORDER_PAYMENT_MINUTES overrides). */
export function defaultShopSettings(): ShopSettingsValues {
  const minutes = Number(process.env.ORDER_PAYMENT_MINUTES ?? 30);
  return { pricesIncludeTax: false, paymentWindowMinutes: Number.isInteger(minutes) && minutes > 0 ? minutes : 30 };
}

export async function shopSettings(ctx: RequestContext): Promise<ShopSettingsValues> {
  const row = await ctx.first(ctx.query.selectFrom('commerce.shop_settings').select(['pricesIncludeTax', 'paymentWindowMinutes']));
  return row ? { pricesIncludeTax: row.pricesIncludeTax, paymentWindowMinutes: row.paymentWindowMinutes } : defaultShopSettings();
}
