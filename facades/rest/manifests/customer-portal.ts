import type { RestRoute } from './types.ts';

const base = '/customer-portal';

/** Member session and storefront resolution (members). */
const memberRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: `${base}/auth/login-channel`,
    field: 'Query.loginChannel',
    tag: 'Member session',
    summary: 'The login channel configured for the tenant',
  },
  {
    method: 'POST',
    path: `${base}/auth/otp`,
    field: 'Mutation.requestCustomerOtp',
    tag: 'Member session',
    summary: 'Send a one-time sign-in code by email, SMS or WhatsApp',
  },
  {
    method: 'POST',
    path: `${base}/auth/otp/verify`,
    field: 'Mutation.verifyCustomerOtp',
    tag: 'Member session',
    summary: 'Verify a code and receive a customer token',
  },
  {
    method: 'POST',
    path: `${base}/auth/register`,
    field: 'Mutation.registerCustomer',
    tag: 'Member session',
    status: 201,
    summary: 'Register a member (data.member) and sign in (data.token)',
  },
  { method: 'POST', path: `${base}/auth/validate-token`, field: 'Query.validateCustomerToken', tag: 'Member session', summary: 'Check the customer token' },
  {
    method: 'POST',
    path: `${base}/auth/refresh`,
    field: 'Mutation.refreshCustomerToken',
    tag: 'Member session',
    summary: 'Rotate the session: the old token ends, a new one is returned',
  },
  { method: 'POST', path: `${base}/auth/logout`, field: 'Mutation.logoutCustomer', tag: 'Member session', summary: 'End the session' },
  {
    method: 'GET',
    path: `${base}/auth/registration-form`,
    field: 'Query.registrationForm',
    tag: 'Member session',
    summary: 'The tenant-specific registration fields',
  },
  {
    method: 'GET',
    path: `${base}/storefront/resolve-domain`,
    field: 'Query.resolveStorefrontDomain',
    tag: 'Storefront',
    summary: 'Resolve a storefront host name to its tenant context',
  },
];

/** Service booking: browse services, slots, guest booking; a signed-in customer's bookings. */
const bookingRoutes: RestRoute[] = [
  { method: 'GET', path: `${base}/services`, field: 'Query.services', tag: 'Service booking', summary: 'Bookable services (search, page, limit)' },
  { method: 'GET', path: `${base}/services/:id`, field: 'Query.service', tag: 'Service booking', summary: 'One service' },
  { method: 'GET', path: `${base}/services/:id/staff`, field: 'Query.serviceStaff', tag: 'Service booking', summary: 'Staff members who perform the service' },
  { method: 'GET', path: `${base}/services/:id/resources`, field: 'Query.serviceResources', tag: 'Service booking', summary: 'Resources the service uses' },
  {
    method: 'GET',
    path: `${base}/services/:id/slots`,
    field: 'Query.serviceSlots',
    tag: 'Service booking',
    summary: 'Open slots on a date (company time zone)',
  },
  {
    method: 'POST',
    path: `${base}/bookings/guest`,
    field: 'Mutation.createGuestBooking',
    tag: 'Service booking',
    status: 201,
    summary: 'Book without signing in',
  },
  { method: 'GET', path: `${base}/bookings`, field: 'Query.myBookings', tag: 'Service booking', summary: "The customer's bookings" },
  { method: 'GET', path: `${base}/bookings/:id`, field: 'Query.myBooking', tag: 'Service booking', summary: 'One of the customer’s bookings' },
  {
    method: 'POST',
    path: `${base}/bookings/:id/cancel`,
    field: 'Mutation.cancelMyBooking',
    tag: 'Service booking',
    summary: 'Cancel within the cancellation policy',
  },
  {
    method: 'POST',
    path: `${base}/bookings/:id/reschedule`,
    field: 'Mutation.rescheduleMyBooking',
    tag: 'Service booking',
    summary: 'Move to another slot within the policy',
  },
];

/** Content and events; forms, surveys and contact (content). */
const contentRoutes: RestRoute[] = [
  { method: 'GET', path: `${base}/cms/pages`, field: 'Query.cmsPages', tag: 'Content and events', summary: 'Published pages' },
  { method: 'GET', path: `${base}/cms/pages/:slug`, field: 'Query.cmsPage', tag: 'Content and events', summary: 'A published page' },
  { method: 'GET', path: `${base}/cms/posts`, field: 'Query.cmsPosts', tag: 'Content and events', summary: 'Published posts (search, page, limit)' },
  { method: 'GET', path: `${base}/cms/posts/:slug`, field: 'Query.cmsPost', tag: 'Content and events', summary: 'A published post with its blocks' },
  { method: 'GET', path: `${base}/cms/categories`, field: 'Query.contentCategories', tag: 'Content and events', summary: 'Content categories' },
  { method: 'GET', path: `${base}/cms/menus/:location`, field: 'Query.cmsMenu', tag: 'Content and events', summary: 'The menu of a location' },
  { method: 'GET', path: `${base}/events`, field: 'Query.events', tag: 'Content and events', summary: 'Upcoming events (search, page, limit)' },
  { method: 'GET', path: `${base}/events/:slug`, field: 'Query.event', tag: 'Content and events', summary: 'An event' },
  {
    method: 'POST',
    path: `${base}/event-registrations`,
    field: 'Mutation.registerForEvent',
    tag: 'Content and events',
    status: 201,
    summary: 'Register for an event',
  },
  {
    method: 'POST',
    path: `${base}/event-registrations/:id/payment-intent`,
    field: 'Mutation.createRegistrationPaymentIntent',
    tag: 'Content and events',
    summary: 'Pay a registration waiting for payment (commerce; content confirms it once paid)',
  },
  {
    method: 'GET',
    path: `${base}/event-registrations/:id/access`,
    field: 'Query.eventRegistrationAccess',
    tag: 'Content and events',
    summary: 'Whether a registration grants entry',
  },
  { method: 'GET', path: `${base}/surveys/:slug`, field: 'Query.survey', tag: 'Forms, surveys, storefront', summary: 'A published survey' },
  {
    method: 'GET',
    path: `${base}/surveys/token/:token`,
    field: 'Query.invitedSurvey',
    tag: 'Forms, surveys, storefront',
    summary: 'The survey of an invitation link',
  },
  {
    method: 'POST',
    path: `${base}/surveys/:id/responses`,
    field: 'Mutation.respondToSurvey',
    tag: 'Forms, surveys, storefront',
    status: 201,
    summary: 'Answer a survey',
  },
  {
    method: 'POST',
    path: `${base}/surveys/token/:token/responses`,
    field: 'Mutation.respondToInvitation',
    tag: 'Forms, surveys, storefront',
    status: 201,
    summary: 'Answer through an invitation link (once)',
  },
  {
    method: 'POST',
    path: `${base}/contact`,
    field: 'Mutation.submitContactInquiry',
    tag: 'Forms, surveys, storefront',
    status: 201,
    summary: 'Send a contact inquiry',
  },
];

/** Shop catalog: active products, categories, brands, collections (commerce). */
const catalogRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: `${base}/shop/products`,
    field: 'Query.shopProducts',
    tag: 'Shop and commerce',
    summary: 'Active products (search, page, limit; categoryId, brandId, collectionId)',
  },
  {
    method: 'GET',
    path: `${base}/shop/products/:slug`,
    field: 'Query.shopProduct',
    tag: 'Shop and commerce',
    summary: 'An active product with its variants and their availability',
  },
  { method: 'GET', path: `${base}/shop/categories`, field: 'Query.shopCategories', tag: 'Shop and commerce', summary: 'Product categories' },
  { method: 'GET', path: `${base}/shop/brands`, field: 'Query.shopBrands', tag: 'Shop and commerce', summary: 'Brands' },
  { method: 'GET', path: `${base}/shop/collections`, field: 'Query.shopCollections', tag: 'Shop and commerce', summary: 'Collections' },
];

/** Shop checkout options, orders and payment status (commerce). */
const orderRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: `${base}/shop/shipping-methods`,
    field: 'Query.shopShippingMethods',
    tag: 'Shop and commerce',
    summary: 'The active shipping methods',
  },
  { method: 'GET', path: `${base}/shop/payment-methods`, field: 'Query.shopPaymentMethods', tag: 'Shop and commerce', summary: 'The active payment methods' },
  {
    method: 'POST',
    path: `${base}/shop/orders`,
    field: 'Mutation.placeOrder',
    tag: 'Shop and commerce',
    status: 201,
    summary: 'Place an order (priced by the server; stock reserved; payment opened)',
  },
  { method: 'GET', path: `${base}/shop/orders`, field: 'Query.myOrders', tag: 'Shop and commerce', summary: "The customer's orders, newest first" },
  {
    method: 'GET',
    path: `${base}/shop/orders/:orderId/payment-status`,
    field: 'Query.orderPaymentStatus',
    tag: 'Shop and commerce',
    summary: "An order's payment status (guests give accessToken)",
  },
];

/** Loyalty: membership tiers, gift offers, redemptions and claims. */
const loyaltyRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: `${base}/membership-tiers`,
    field: 'Query.membershipTiers',
    tag: 'Loyalty and offers',
    summary: 'The membership tiers, lowest threshold first',
  },
  {
    method: 'GET',
    path: `${base}/gifts/offers`,
    field: 'Query.shopGiftOffers',
    tag: 'Loyalty and offers',
    summary: 'The gifts offered now (with a customer token: whether each can be redeemed)',
  },
  { method: 'GET', path: `${base}/gifts/offers/:id`, field: 'Query.shopGiftOffer', tag: 'Loyalty and offers', summary: 'One gift offered now' },
  {
    method: 'POST',
    path: `${base}/gifts/offers/:id/redeem`,
    field: 'Mutation.redeemGiftOffer',
    tag: 'Loyalty and offers',
    status: 201,
    summary: 'Spend points on a gift',
  },
  {
    method: 'POST',
    path: `${base}/gifts/claim`,
    field: 'Mutation.claimGift',
    tag: 'Loyalty and offers',
    status: 201,
    summary: 'Claim a gift with a claim token, or a free gift when signed in',
  },
  {
    method: 'GET',
    path: `${base}/gifts/redemptions`,
    field: 'Query.myRedemptions',
    tag: 'Loyalty and offers',
    summary: "The signed-in customer's gifts, newest first",
  },
];

/** The customer portal v6 routes served so far (the contract's groups arrive with their subgraphs). */
export const customerPortalRoutes: RestRoute[] = [...memberRoutes, ...bookingRoutes, ...contentRoutes, ...catalogRoutes, ...orderRoutes, ...loyaltyRoutes];
