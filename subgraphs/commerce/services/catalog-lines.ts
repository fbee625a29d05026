/**
 * Order items → priced lines from the catalog, read inside the checkout's transaction. Client
 * prices are never read: the unit price, tax rate and name come from the variant and its product.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { anyOf } from '../../kernel/query.ts';

export interface OrderItem {
  productId?: string | null;
  variantId?: string | null;
  quantity: number;
}

/** An order line as the catalog prices it; `index` is the item it came from (errors name it). */
export interface CatalogLine {
  index: number;
  productId: string;
  variantId: string;
  name: string;
  variantName: string | null;
  sku: string | null;
  quantity: number;
  unitPriceMinor: number;
  currency: string;
  taxRate: string;
  trackInventory: boolean;
}

/**
 * The lines of `items`, in their order. A product id orders its only (default) variant; a product
 * with options needs its variant. A product of another company, or not active, is not found: 400
 * naming the line. A price in another currency than the shop's is 400 too.
 */
export async function resolveItems(tx: RequestContext, items: OrderItem[], currency: string): Promise<CatalogLine[]> {
  const productIds = [...new Set(items.filter((i) => !i.variantId).map((i) => i.productId!))];
  const variantIds = [...new Set(items.filter((i) => i.variantId).map((i) => i.variantId!))];
  const rows = await tx.all(
    tx.query
      .selectFrom('commerce.product_variant as v')
      .innerJoin('commerce.product as p', 'p.id', 'v.productId')
      .select((e) => [
        'v.id as variantId',
        'v.productId',
        'p.name as productName',
        'v.name as variantName',
        'v.sku',
        'v.priceMinor',
        'v.currency',
        'p.taxRate',
        'v.trackInventory',
        'v.isDefault',
        e
          .selectFrom('commerce.product_variant as w')
          .select((w) => w.fn.countAll<string>().as('n'))
          .whereRef('w.productId', '=', 'p.id')
          .as('variants'),
      ])
      .where('p.status', '=', 'active')
      .where((e) => e.or([e('v.id', '=', anyOf(variantIds)), e.and([e('v.productId', '=', anyOf(productIds)), e('v.isDefault', '=', true)])])),
  );
  return items.map((item, index) => {
    const field = `items[${index}]`;
    const row = item.variantId ? rows.find((r) => r.variantId === item.variantId) : rows.find((r) => r.productId === item.productId && r.isDefault);
    if (!row)
      throw item.variantId
        ? badInput(`${field}.variantId`, 'is not a variant of an active product of this shop')
        : badInput(`${field}.productId`, 'is not an active product of this shop');
    if (item.variantId && item.productId && row.productId !== item.productId) throw badInput(`${field}.variantId`, 'is not a variant of productId');
    if (!item.variantId && Number(row.variants) > 1) throw badInput(`${field}.variantId`, 'is required: the product has options');
    if (row.currency.trim() !== currency) throw badInput(`${field}.productId`, `is priced in ${row.currency.trim()}, the shop sells in ${currency}`);
    return {
      index,
      productId: row.productId,
      variantId: row.variantId,
      name: row.productName,
      variantName: row.variantName,
      sku: row.sku,
      quantity: item.quantity,
      unitPriceMinor: Number(row.priceMinor),
      currency,
      taxRate: Number(row.taxRate ?? 0).toFixed(2),
      trackInventory: row.trackInventory,
    };
  });
}
