import type { RestRoute } from './types.ts';

/** Merchant REST routes (Bearer API key or merchant session). */
export const merchantRoutes: RestRoute[] = [
  { method: 'GET', path: '/merchant/bookings/services', field: 'Query.bookableServices', tag: 'Merchant', summary: 'The bookable services (an empty list on a fresh company)' },
];
