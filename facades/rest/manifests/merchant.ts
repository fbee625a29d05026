import type { RestRoute } from './types.ts';

/** Merchant REST routes (Bearer API key or merchant session). */
export const merchantRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/merchant/bookings/services',
    field: 'Query.bookableServices',
    tag: 'Merchant',
    summary: 'The bookable services (an empty list on a fresh company)',
  },
  {
    method: 'POST',
    path: '/merchant/campaigns/:id/send',
    field: 'Mutation.sendCampaign',
    tag: 'Merchant',
    status: 202,
    summary: 'Start sending a campaign (202: it is SENDING; deliveries go out in the background; 409 while already sending)',
  },
];
