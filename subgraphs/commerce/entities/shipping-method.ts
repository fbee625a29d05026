import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

export const SHIPPING_KINDS = ['FLAT_RATE', 'FREE_ABOVE', 'LOCAL_PICKUP'] as const;
export type ShippingKind = (typeof SHIPPING_KINDS)[number];

/**
 * How an order reaches its customer: a flat rate, a rate that is free from an order amount on, or
 * pickup at the business at no cost. `needsAddress` says whether checkout asks for an address.
 */
export const ShippingMethod = tenantEntity({
  name: 'ShippingMethod',
  schema: 'commerce',
  tableName: 'shipping_method',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    kind: p.text().$type<ShippingKind>(),
    priceMinor: p.bigint('number'),
    /** FREE_ABOVE: from this subtotal on, shipping costs nothing. */
    freeAboveMinor: p.bigint('number').nullable(),
    currency: p.character().length(3),
    needsAddress: p.boolean(),
    active: p.boolean(),
    position: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [
    { name: 'shipping_method_name_uniq', expression: 'create unique index shipping_method_name_uniq on commerce.shipping_method (company_id, lower(name))' },
  ],
  checks: [
    { name: 'shipping_method_kind_check', expression: `kind in (${SHIPPING_KINDS.map((s) => `'${s}'`).join(', ')})` },
    { name: 'shipping_method_price_minor_check', expression: 'price_minor >= 0' },
    { name: 'shipping_method_free_above_minor_check', expression: 'free_above_minor >= 0' },
    { name: 'shipping_method_free_above_check', expression: "kind <> 'FREE_ABOVE' or free_above_minor is not null" },
  ],
});
export type ShippingMethod = InstanceType<typeof ShippingMethod.class>;
