/** Orders and their lines (one aggregate), and the per-company order number counter. */
import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';
import { ShippingMethod } from './shipping-method.ts';

export const ORDER_STATUSES = ['PENDING_PAYMENT', 'PAID', 'FULFILLED', 'CANCELLED', 'EXPIRED', 'REFUNDED', 'PARTIALLY_REFUNDED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type OrderChannel = 'online' | 'pos';

export interface ShippingAddress {
  line1: string;
  line2?: string | null;
  city: string;
  postalCode: string;
  region?: string | null;
  country: string;
}

/**
 * An order: prices, tax and totals computed by the server when it was placed, in the company's
 * currency. Guests read it back with the access token returned at creation (only its hash is kept).
 */
export const Order = tenantEntity({
  name: 'Order',
  schema: 'commerce',
  tableName: 'shop_order',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    number: p.integer(),
    status: p.text().$type<OrderStatus>(),
    channel: p.text().$type<OrderChannel>(),
    customerId: p.uuid().nullable(),
    customerName: p.text(),
    customerEmail: p.text().nullable(),
    customerPhone: p.text().nullable(),
    shippingMethodId: p.manyToOne(ShippingMethod).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    shippingAddress: p.json<ShippingAddress>().nullable(),
    paymentMethodId: p.text(),
    promotionCode: p.text().nullable(),
    currency: p.character().length(3),
    pricesIncludeTax: p.boolean(),
    subtotalMinor: p.bigint('number'),
    shippingMinor: p.bigint('number'),
    taxMinor: p.bigint('number'),
    discountMinor: p.bigint('number'),
    totalMinor: p.bigint('number'),
    refundedMinor: p.bigint('number'),
    accessTokenHash: p.text(),
    /** An unpaid order expires then (null: it waits, as a pay-at-the-venue order does). */
    expiresAt: p.datetime().nullable(),
    paidAt: p.datetime().nullable(),
    fulfilledAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
    cancelReason: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'shop_order_number_uniq', properties: ['companyId', 'number'] }],
  indexes: [
    { name: 'shop_order_company_created_idx', expression: 'create index shop_order_company_created_idx on commerce.shop_order (company_id, created_at desc)' },
    { name: 'shop_order_customer_idx', expression: 'create index shop_order_customer_idx on commerce.shop_order (company_id, customer_id, created_at desc)' },
    // The expiry job's scan: only orders still waiting for their payment.
    {
      name: 'shop_order_pending_expiry_idx',
      expression: "create index shop_order_pending_expiry_idx on commerce.shop_order (expires_at) where status = 'PENDING_PAYMENT'",
    },
  ],
  checks: [
    { name: 'shop_order_status_check', expression: `status in (${ORDER_STATUSES.map((s) => `'${s}'`).join(', ')})` },
    { name: 'shop_order_channel_check', expression: "channel in ('online', 'pos')" },
    { name: 'shop_order_subtotal_minor_check', expression: 'subtotal_minor >= 0' },
    { name: 'shop_order_shipping_minor_check', expression: 'shipping_minor >= 0' },
    { name: 'shop_order_tax_minor_check', expression: 'tax_minor >= 0' },
    { name: 'shop_order_discount_minor_check', expression: 'discount_minor >= 0' },
    { name: 'shop_order_total_minor_check', expression: 'total_minor >= 0' },
    { name: 'shop_order_refunded_minor_check', expression: 'refunded_minor >= 0 and refunded_minor <= total_minor' },
  ],
});
export type Order = InstanceType<typeof Order.class>;

/** A line of an order: what was bought, at the price and tax rate of that moment. */
export const OrderLine = tenantEntity({
  name: 'OrderLine',
  schema: 'commerce',
  tableName: 'order_line',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    orderId: p.manyToOne(Order).mapToPk().deleteRule('no action').deferMode('deferred'),
    position: p.integer(),
    productId: p.uuid(),
    variantId: p.uuid(),
    name: p.text(),
    variantName: p.text().nullable(),
    sku: p.text().nullable(),
    quantity: p.integer(),
    unitPriceMinor: p.bigint('number'),
    /** Percent, e.g. "19.00". */
    taxRate: p.decimal('string').precision(5).scale(2),
    taxMinor: p.bigint('number'),
    totalMinor: p.bigint('number'),
    /** Whether the line holds stock (its variant tracks inventory): released on cancel and expiry. */
    stockReserved: p.boolean(),
  },
  indexes: [{ name: 'order_line_order_idx', properties: ['orderId', 'position'] }],
  checks: [
    { name: 'order_line_quantity_check', expression: 'quantity >= 1 and quantity <= 1000' },
    { name: 'order_line_unit_price_minor_check', expression: 'unit_price_minor >= 0' },
    { name: 'order_line_tax_minor_check', expression: 'tax_minor >= 0' },
    { name: 'order_line_total_minor_check', expression: 'total_minor >= 0' },
  ],
});
export type OrderLine = InstanceType<typeof OrderLine.class>;

/** The last order number given per company. */
export const OrderCounter = tenantEntity({
  name: 'OrderCounter',
  schema: 'commerce',
  tableName: 'order_counter',
  properties: {
    companyId: companyIdColumn().primary(),
    lastNumber: p.integer(),
  },
});
export type OrderCounter = InstanceType<typeof OrderCounter.class>;
