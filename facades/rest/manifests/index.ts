import { customerPortalRoutes } from './customer-portal.ts';
import { devRoutes } from './dev.ts';
import { merchantRoutes } from './merchant.ts';
import type { RestRoute } from './types.ts';

export type { RestRoute };

/** Every REST route, all surfaces. Only these fields are exposed over REST. */
export const ROUTES: RestRoute[] = [...customerPortalRoutes, ...merchantRoutes, ...devRoutes];

/**
 * Fields REST never selects: relations into another resource, which a REST client reads through
 * that resource's own routes (a customer's bookings: GET /bookings; their points: the gift routes).
 */
export const HIDDEN_FIELDS = new Set(['Customer.bookings', 'Customer.loyalty']);
