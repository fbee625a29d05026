/** GraphQL shapes of a product, its variants, the storefront's view of them, and the inputs. */
import { ArgsType, Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Money, toMoney } from '../../kernel/money.ts';
import { ListArgs, PageOf } from '../../kernel/pagination.ts';
import { DateTime, Decimal } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { Product, ProductStatus } from '../entities/product.ts';
import type { VariantRow } from '../services/products.ts';

export const ProductStatusEnum = stateEnum<ProductStatus>('ProductStatus', 'Whether a product is sold.', {
  draft: 'Being prepared: not shown on the storefront, not sold.',
  active: 'On the storefront and sold.',
  archived: 'No longer sold; kept for past orders.',
});

export const StockStatusEnum = stateEnum<'IN_STOCK' | 'LOW_STOCK' | 'OUT_OF_STOCK'>('StockStatus', 'Availability as customers see it (never the count).', {
  IN_STOCK: 'Available (or stock is not tracked).',
  LOW_STOCK: 'Five or fewer left.',
  OUT_OF_STOCK: 'None left.',
});
export type StockStatus = keyof typeof StockStatusEnum;

/** At most this many left shows as LOW_STOCK. */
export const LOW_STOCK = 5;

export function stockStatus(v: Pick<VariantRow, 'stock' | 'trackInventory'>): StockStatus {
  if (!v.trackInventory) return 'IN_STOCK';
  return v.stock <= 0 ? 'OUT_OF_STOCK' : v.stock <= LOW_STOCK ? 'LOW_STOCK' : 'IN_STOCK';
}

@ObjectType('VariantOption', { description: 'One option telling a variant apart, e.g. size M.' })
export class VariantOptionNode {
  @Field(() => String) name!: string;
  @Field(() => String) value!: string;
}

@ObjectType('ProductVariant', { description: 'One sellable form of a product, with its price, SKU and stock.' })
export class ProductVariantNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) productId!: string;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) sku?: string | null;
  @Field(() => Money) price!: Money;
  @Field(() => Money, { nullable: true, description: 'The former price shown struck through.' }) compareAtPrice?: Money | null;
  @Field(() => Int, { description: 'Units that can still be sold (reserved units are taken off).' }) stock!: number;
  @Field(() => Boolean, { description: 'Whether sales are limited by stock.' }) trackInventory!: boolean;
  @Field(() => Boolean, { description: 'The variant ordered when only the product is named.' }) isDefault!: boolean;
  // Cost analysis: a variant is told apart by a few options (size, colour, material).
  @Directive('@listSize(assumedSize: 3)')
  @Field(() => [VariantOptionNode], { description: 'The options that tell it apart; empty for a default variant.' })
  options!: VariantOptionNode[];
}

@ObjectType('Product', { description: 'A product of the shop with its variants.' })
export class ProductNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => [String]) images!: string[];
  @Field(() => ProductStatusEnum) status!: ProductStatus;
  @Field(() => String, { description: 'Tax rate in percent, e.g. "20.00".' }) taxRate!: string;
  @Field(() => ID, { nullable: true }) categoryId?: string | null;
  @Field(() => ID, { nullable: true }) brandId?: string | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const ProductPage = PageOf(ProductNode, 'ProductPage');

@ObjectType('ShopVariant', { description: 'A variant as the storefront shows it: availability, not the count.' })
export class ShopVariantNode {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) sku?: string | null;
  @Field(() => Money) price!: Money;
  @Field(() => Money, { nullable: true }) compareAtPrice?: Money | null;
  @Field(() => StockStatusEnum) stockStatus!: StockStatus;
  @Field(() => Boolean) isDefault!: boolean;
  // Cost analysis: a variant is told apart by a few options (size, colour, material).
  @Directive('@listSize(assumedSize: 3)')
  @Field(() => [VariantOptionNode], { description: 'The options that tell it apart; empty for a default variant.' })
  options!: VariantOptionNode[];
}

@ObjectType('ShopProduct', { description: 'An active product as the storefront shows it.' })
export class ShopProductNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => [String]) images!: string[];
  @Field(() => String, { description: 'Tax rate in percent, e.g. "20.00".' }) taxRate!: string;
  @Field(() => ID, { nullable: true }) categoryId?: string | null;
  @Field(() => ID, { nullable: true }) brandId?: string | null;
}

export const ShopProductPage = PageOf(ShopProductNode, 'ShopProductPage');

@ObjectType('StockAdjustment', { description: "A change of a variant's stock and the stock after it." })
export class StockAdjustmentNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) variantId!: string;
  @Field(() => Int, { description: 'The change: positive added, negative taken off.' }) delta!: number;
  @Field(() => Int, { description: 'Stock after the change.' }) stock!: number;
  @Field(() => String) reason!: string;
  @Field(() => DateTime) createdAt!: Date;
}

export const StockAdjustmentPage = PageOf(StockAdjustmentNode, 'StockAdjustmentPage');

@InputType()
export class VariantOptionInput {
  @Field(() => String, { description: 'The option\'s name, e.g. "size".' }) name!: string;
  @Field(() => String, { description: 'Its value for this variant, e.g. "M".' }) value!: string;
}

@InputType()
export class VariantInput {
  @Field(() => ID, {
    nullable: true,
    description:
      'update_product only: the variant to change (from get_product); without it a variant is added. Fields left out stay as they are; stock changes with adjust_stock.',
  })
  id?: string;
  @Field(() => String, { nullable: true, description: 'The variant\'s name, e.g. "Large / Red".' }) name?: string;
  @Field(() => String, { nullable: true, description: 'Stock-keeping unit, unique in the shop (letters, digits, . _ - /).' }) sku?: string;
  @Field(() => Decimal, { nullable: true, description: 'Price in major units, e.g. "12.50"; the product\'s price when left out.' }) price?: string;
  @Field(() => Decimal, { nullable: true, description: 'Former price shown struck through; above the price.' }) compareAtPrice?: string;
  @Field(() => Int, { nullable: true, description: 'Units in stock, between 0 and 1000000 (default 0).' }) stock?: number;
  @Field(() => Boolean, { nullable: true, description: "Whether sales are limited by stock (default: the product's, or true when stock is given)." })
  trackInventory?: boolean;
  @Field(() => [VariantOptionInput], { nullable: true, description: 'The options that tell it apart, e.g. [{ name: "size", value: "M" }].' })
  options?: VariantOptionInput[];
}

@InputType()
export class ProductInput {
  @Field(() => String, { nullable: true, description: "The product's name. Required when creating." }) name?: string;
  @Field(() => String, { nullable: true, description: 'URL name, unique in the shop; made from the name when left out.' }) slug?: string;
  @Field(() => String, { nullable: true, description: 'What the product is, shown to customers.' }) description?: string;
  @Field(() => [String], { nullable: true, description: 'Image URLs (http or https), at most 20; the first is the main image.' }) images?: string[];
  @Field(() => ID, { nullable: true, description: 'Its category (from list_product_categories); null to clear.' }) categoryId?: string;
  @Field(() => ID, { nullable: true, description: 'Its brand (from list_brands); null to clear.' }) brandId?: string;
  @Field(() => [ID], { nullable: true, description: 'The collections it is in (replaces the list).' }) collectionIds?: string[];
  @Field(() => Decimal, {
    nullable: true,
    description: 'Price in major units, e.g. "12.50"; at least 0. Required when creating without variants. On update it changes the default variant.',
  })
  price?: string;
  @Field(() => Decimal, { nullable: true, description: 'Former price shown struck through; above the price.' }) compareAtPrice?: string;
  @Field(() => String, { nullable: true, description: 'Stock-keeping unit of the default variant, unique in the shop.' }) sku?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Units in stock of the default variant when creating, between 0 and 1000000; later changes go through adjustStock.',
  })
  stock?: number;
  @Field(() => Boolean, { nullable: true, description: 'Whether sales are limited by stock (default true when stock is given).' }) trackInventory?: boolean;
  @Field(() => Decimal, { nullable: true, description: 'Tax rate in percent, 0 to 100, e.g. "20" (default 0).' }) taxRate?: string;
  @Field(() => ProductStatusEnum, { nullable: true, description: 'draft (default), active (sold) or archived.' }) status?: ProductStatus;
  @Field(() => [VariantInput], {
    nullable: true,
    description:
      'Variants (sizes, colours), at most 100 per product. Creating: the first is the default; without them the product has one default variant. Updating: each with an id changes that variant, each without one is added.',
  })
  variants?: VariantInput[];
  @Field(() => [ID], {
    nullable: true,
    description: 'update_product only: variants to remove (a product keeps at least one; when the default goes, the next one becomes the default).',
  })
  removeVariantIds?: string[];
}

@ArgsType()
export class ProductListArgs extends ListArgs {
  @Field(() => ProductStatusEnum, { nullable: true, description: 'Only products in this state.' }) status?: ProductStatus;
  @Field(() => ID, { nullable: true, description: 'Only products of this category.' }) categoryId?: string;
  @Field(() => ID, { nullable: true, description: 'Only products of this brand.' }) brandId?: string;
  @Field(() => ID, { nullable: true, description: 'Only products in this collection.' }) collectionId?: string;
  @Field(() => Int, { nullable: true, description: 'Items to skip, at least 0 (instead of page).' }) offset?: number;
}

@ArgsType()
export class ShopProductListArgs extends ListArgs {
  @Field(() => ID, { nullable: true, description: 'Only products of this category.' }) categoryId?: string;
  @Field(() => ID, { nullable: true, description: 'Only products of this brand.' }) brandId?: string;
  @Field(() => ID, { nullable: true, description: 'Only products in this collection.' }) collectionId?: string;
}

const optionsOf = (o: Record<string, string>) => Object.entries(o ?? {}).map(([name, value]) => ({ name, value }));

/** A product (a row read, or the entity a mutation wrote). */
export const productNode = (p: Product): ProductNode => ({
  id: p.id,
  name: p.name,
  slug: p.slug,
  description: p.description ?? null,
  images: p.images ?? [],
  status: p.status,
  taxRate: String(p.taxRate),
  categoryId: p.categoryId ?? null,
  brandId: p.brandId ?? null,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

export const shopProductNode = (p: Product): ShopProductNode => ({
  id: p.id,
  name: p.name,
  slug: p.slug,
  description: p.description ?? null,
  images: p.images ?? [],
  taxRate: String(p.taxRate),
  categoryId: p.categoryId ?? null,
  brandId: p.brandId ?? null,
});

export const variantNode = (v: VariantRow): ProductVariantNode => ({
  id: v.id,
  productId: v.productId,
  name: v.name ?? null,
  sku: v.sku ?? null,
  price: toMoney(v.priceMinor, v.currency.trim()),
  compareAtPrice: v.compareAtPriceMinor == null ? null : toMoney(v.compareAtPriceMinor, v.currency.trim()),
  stock: v.stock,
  trackInventory: v.trackInventory,
  isDefault: v.isDefault,
  options: optionsOf(v.options),
});

export const shopVariantNode = (v: VariantRow): ShopVariantNode => ({
  id: v.id,
  name: v.name ?? null,
  sku: v.sku ?? null,
  price: toMoney(v.priceMinor, v.currency.trim()),
  compareAtPrice: v.compareAtPriceMinor == null ? null : toMoney(v.compareAtPriceMinor, v.currency.trim()),
  stockStatus: stockStatus(v),
  isDefault: v.isDefault,
  options: optionsOf(v.options),
});
