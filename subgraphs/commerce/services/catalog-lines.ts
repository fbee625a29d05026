/**
 * Order items → priced lines from the catalog, read inside the checkout's transaction. Client
 * prices are never read: the unit price, tax rate and name come from the variant and its product.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { COMPANY } from '../../kernel/tenancy.ts';

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

interface VariantRow {
  variant_id: string;
  product_id: string;
  product_name: string;
  variant_name: string | null;
  sku: string | null;
  price_minor: string | number;
  currency: string;
  tax_rate: string | number | null;
  track_inventory: boolean;
  is_default: boolean;
  variants: string | number;
}

/**
 * The lines of `items`, in their order. A product id orders its only (default) variant; a product
 * with options needs its variant. A product of another company, or not active, is not found: 400
 * naming the line. A price in another currency than the shop's is 400 too.
 */
export async function resolveItems(tx: RequestContext, items: OrderItem[], currency: string): Promise<CatalogLine[]> {
  const productIds = [...new Set(items.filter((i) => !i.variantId).map((i) => i.productId!))];
  const variantIds = [...new Set(items.filter((i) => i.variantId).map((i) => i.variantId!))];
  const rows = await tx.tenantSql<VariantRow>`
    select v.id as variant_id, v.product_id, p.name as product_name, v.name as variant_name, v.sku, v.price_minor, v.currency,
           p.tax_rate, v.track_inventory, v.is_default,
           (select count(*) from commerce.product_variant w where w.product_id = p.id and w.company_id = p.company_id) as variants
      from commerce.product_variant v join commerce.product p on p.id = v.product_id and p.company_id = v.company_id
     where v.company_id = ${COMPANY} and p.status = 'active'
       and (v.id in (${variantIds}) or (v.product_id in (${productIds}) and v.is_default))`;
  return items.map((item, index) => {
    const field = `items[${index}]`;
    const row = item.variantId ? rows.find((r) => r.variant_id === item.variantId) : rows.find((r) => r.product_id === item.productId && r.is_default);
    if (!row) throw item.variantId ? badInput(`${field}.variantId`, 'is not a variant of an active product of this shop') : badInput(`${field}.productId`, 'is not an active product of this shop');
    if (item.variantId && item.productId && row.product_id !== item.productId) throw badInput(`${field}.variantId`, 'is not a variant of productId');
    if (!item.variantId && Number(row.variants) > 1) throw badInput(`${field}.variantId`, 'is required: the product has options');
    if (row.currency.trim() !== currency) throw badInput(`${field}.productId`, `is priced in ${row.currency.trim()}, the shop sells in ${currency}`);
    return {
      index,
      productId: row.product_id,
      variantId: row.variant_id,
      name: row.product_name,
      variantName: row.variant_name,
      sku: row.sku,
      quantity: item.quantity,
      unitPriceMinor: Number(row.price_minor),
      currency,
      taxRate: Number(row.tax_rate ?? 0).toFixed(2),
      trackInventory: row.track_inventory,
    };
  });
}
