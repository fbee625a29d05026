import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { commerceConstraints } from './constraints.ts';
import { Brand } from './entities/brand.ts';
import { ProductCategory } from './entities/category.ts';
import { Collection, CollectionProduct } from './entities/collection.ts';
import { Product, ProductVariant, StockMovement } from './entities/product.ts';
import { CommerceCustomer } from './entities/customer-projection.ts';
import { Order, OrderCounter, OrderLine } from './entities/order.ts';
import { Payment } from './entities/payment.ts';
import { Promotion, PromotionUsage } from './entities/promotion.ts';
import { PayableRegistration } from './entities/registration-projection.ts';
import { ShippingMethod } from './entities/shipping-method.ts';
import { ShopSettings } from './entities/shop-settings.ts';
import { WebhookEvent } from './entities/webhook-event.ts';
import { commerceJobs } from './jobs.ts';
import { commerce0001 } from './migrations/0001_catalog.ts';
import { commerce0002 } from './migrations/0002_orders.ts';
import { commerce0003 } from './migrations/0003_registration_payments.ts';
import { commerce0004 } from './migrations/0004_promotions.ts';
import { commerce0005 } from './migrations/0005_plan_payments.ts';
import { commerceReferences } from './references.ts';
// Resolvers register their root fields as their modules load: this order is the order of the
// Query and Mutation fields in the printed SDL (schema/commerce.graphql).
import { ProductResolver } from './resolvers/product.resolver.ts';
import { ShopProductResolver } from './resolvers/shop-product.resolver.ts';
import { ProductCategoryResolver } from './resolvers/product-category.resolver.ts';
import { BrandResolver } from './resolvers/brand.resolver.ts';
import { CollectionResolver } from './resolvers/collection.resolver.ts';
import { ShippingMethodResolver } from './resolvers/shipping-method.resolver.ts';
import { PaymentMethodResolver } from './resolvers/payment-method.resolver.ts';
import { OrderResolver } from './resolvers/order.resolver.ts';
import { RegistrationPaymentResolver } from './resolvers/registration-payment.resolver.ts';
import { PlanResolver } from './resolvers/plan.resolver.ts';
import { PromotionResolver } from './resolvers/promotion.resolver.ts';
import { customers } from './services/customers.ts';
import { paymentRoutes } from './services/payments/routes.ts';
import { commerceSubscriptions } from './subscriptions.ts';

/** The shop: catalog (products, variants, stock, categories, brands, collections); orders and payments, paid event registrations' included; promotion codes. */
export const commerce: SubgraphModule = {
  name: 'commerce',
  schema: 'commerce',
  entities: [
    ProductCategory,
    Brand,
    Collection,
    CollectionProduct,
    Product,
    ProductVariant,
    StockMovement,
    ShippingMethod,
    ShopSettings,
    Order,
    OrderLine,
    OrderCounter,
    Payment,
    WebhookEvent,
    CommerceCustomer,
    PayableRegistration,
    Promotion,
    PromotionUsage,
  ],
  migrations: [commerce0001, commerce0002, commerce0003, commerce0004, commerce0005],
  constraints: commerceConstraints,
  buildSchema: () =>
    buildFederatedSchema({
      name: 'commerce',
      resolvers: [
        ShopProductResolver,
        ProductResolver,
        ProductCategoryResolver,
        BrandResolver,
        CollectionResolver,
        ShippingMethodResolver,
        PaymentMethodResolver,
        OrderResolver,
        RegistrationPaymentResolver,
        PromotionResolver,
        PlanResolver,
      ],
      references: commerceReferences,
    }),
  subscriptions: commerceSubscriptions,
  jobs: commerceJobs,
  // Payment providers' webhooks and the sandbox's hosted payment page.
  http: paymentRoutes,
  // Customers that existed before commerce kept its projection (later ones arrive as events).
  async onStart(runtime) {
    await customers.backfill(runtime);
  },
};
