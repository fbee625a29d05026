import type { Generated } from 'kysely';
import type { Table } from '../kernel/tables.ts';
import type { Brand } from './entities/brand.ts';
import type { ProductCategory } from './entities/category.ts';
import type { Collection, CollectionProduct } from './entities/collection.ts';
import type { CommerceCustomer } from './entities/customer-projection.ts';
import type { Order, OrderCounter, OrderLine } from './entities/order.ts';
import type { Payment, PaymentStatus } from './entities/payment.ts';
import type { Product, ProductVariant, StockMovement } from './entities/product.ts';
import type { Promotion, PromotionUsage } from './entities/promotion.ts';
import type { PayableRegistration } from './entities/registration-projection.ts';
import type { ShippingMethod } from './entities/shipping-method.ts';
import type { ShopSettings } from './entities/shop-settings.ts';
import type { WebhookEvent } from './entities/webhook-event.ts';

/** The commerce subgraph's tables, for `ctx.query` (kernel/tables.ts); the sandbox provider's, which has no entity, is written out. */
declare module '../kernel/tables.ts' {
  interface Tables {
    'commerce.brand': Table<typeof Brand>;
    'commerce.product_category': Table<typeof ProductCategory>;
    'commerce.collection': Table<typeof Collection>;
    'commerce.collection_product': Table<typeof CollectionProduct>;
    'commerce.customer_projection': Table<typeof CommerceCustomer>;
    'commerce.shop_order': Table<typeof Order>;
    'commerce.order_line': Table<typeof OrderLine>;
    'commerce.order_counter': Table<typeof OrderCounter>;
    'commerce.payment': Table<typeof Payment>;
    'commerce.product': Table<typeof Product>;
    'commerce.product_variant': Table<typeof ProductVariant>;
    'commerce.stock_movement': Table<typeof StockMovement>;
    'commerce.promotion': Table<typeof Promotion>;
    'commerce.promotion_usage': Table<typeof PromotionUsage>;
    'commerce.payable_registration': Table<typeof PayableRegistration>;
    'commerce.shipping_method': Table<typeof ShippingMethod>;
    'commerce.shop_settings': Table<typeof ShopSettings>;
    'commerce.webhook_event': Table<typeof WebhookEvent>;
    /** The sandbox payment provider's own intents (services/payments/sandbox.ts): no tenant's table, no entity. */
    'commerce.sandbox_intent': {
      id: string;
      amountMinor: number;
      currency: string;
      status: PaymentStatus;
      paymentMethodId: string;
      returnUrl: string | null;
      refundedMinor: Generated<number>;
      description: string | null;
      metadataPaymentId: string;
      metadataCompanyId: string;
      lastErrorCode: string | null;
      lastErrorMessage: string | null;
      createdAt: Date;
      updatedAt: Date;
    };
  }
}
