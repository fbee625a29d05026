import type { RestRoute } from './types.ts';

const base = '/customer-portal';

/** Member session and storefront resolution (members). */
const memberRoutes: RestRoute[] = [
  { method: 'GET', path: `${base}/auth/login-channel`, field: 'Query.loginChannel', auth: 'public', tag: 'Member session', summary: 'The login channel configured for the tenant' },
  { method: 'POST', path: `${base}/auth/otp`, field: 'Mutation.requestCustomerOtp', auth: 'public', tag: 'Member session', summary: 'Send a one-time sign-in code by email, SMS or WhatsApp' },
  { method: 'POST', path: `${base}/auth/otp/verify`, field: 'Mutation.verifyCustomerOtp', auth: 'public', tag: 'Member session', summary: 'Verify a code and receive a customer token' },
  { method: 'POST', path: `${base}/auth/register`, field: 'Mutation.registerCustomer', auth: 'public', tag: 'Member session', status: 201, summary: 'Register a member (data.member) and sign in (data.token)' },
  { method: 'POST', path: `${base}/auth/validate-token`, field: 'Query.validateCustomerToken', auth: 'customer', tag: 'Member session', summary: 'Check the customer token' },
  { method: 'POST', path: `${base}/auth/refresh`, field: 'Mutation.refreshCustomerToken', auth: 'customer', tag: 'Member session', summary: 'Rotate the session: the old token ends, a new one is returned' },
  { method: 'POST', path: `${base}/auth/logout`, field: 'Mutation.logoutCustomer', auth: 'customer', tag: 'Member session', summary: 'End the session' },
  { method: 'GET', path: `${base}/auth/registration-form`, field: 'Query.registrationForm', auth: 'public', tag: 'Member session', summary: 'The tenant-specific registration fields' },
  { method: 'GET', path: `${base}/storefront/resolve-domain`, field: 'Query.resolveStorefrontDomain', auth: 'none', tag: 'Storefront', summary: 'Resolve a storefront host name to its tenant context' },
];

/** Service booking: browse services, slots, guest booking; a signed-in customer's bookings. */
const bookingRoutes: RestRoute[] = [
  { method: 'GET', path: `${base}/services`, field: 'Query.services', auth: 'public', tag: 'Service booking', summary: 'Bookable services (search, page, limit)' },
  { method: 'GET', path: `${base}/services/:id`, field: 'Query.service', auth: 'public', tag: 'Service booking', summary: 'One service' },
  { method: 'GET', path: `${base}/services/:id/staff`, field: 'Query.serviceStaff', auth: 'public', tag: 'Service booking', summary: 'Staff members who perform the service' },
  { method: 'GET', path: `${base}/services/:id/resources`, field: 'Query.serviceResources', auth: 'public', tag: 'Service booking', summary: 'Resources the service uses' },
  { method: 'GET', path: `${base}/services/:id/slots`, field: 'Query.serviceSlots', auth: 'public', tag: 'Service booking', summary: 'Open slots on a date (company time zone)' },
  { method: 'POST', path: `${base}/bookings/guest`, field: 'Mutation.createGuestBooking', auth: 'optional', tag: 'Service booking', status: 201, summary: 'Book without signing in' },
  { method: 'GET', path: `${base}/bookings`, field: 'Query.myBookings', auth: 'customer', tag: 'Service booking', summary: "The customer's bookings" },
  { method: 'GET', path: `${base}/bookings/:id`, field: 'Query.myBooking', auth: 'customer', tag: 'Service booking', summary: 'One of the customer’s bookings' },
  { method: 'POST', path: `${base}/bookings/:id/cancel`, field: 'Mutation.cancelMyBooking', auth: 'customer', tag: 'Service booking', summary: 'Cancel within the cancellation policy' },
  { method: 'POST', path: `${base}/bookings/:id/reschedule`, field: 'Mutation.rescheduleMyBooking', auth: 'customer', tag: 'Service booking', summary: 'Move to another slot within the policy' },
];

/** Content and events; forms, surveys and contact (content). */
const contentRoutes: RestRoute[] = [
  { method: 'GET', path: `${base}/cms/pages`, field: 'Query.cmsPages', auth: 'public', tag: 'Content and events', summary: 'Published pages' },
  { method: 'GET', path: `${base}/cms/pages/:slug`, field: 'Query.cmsPage', auth: 'public', tag: 'Content and events', summary: 'A published page' },
  { method: 'GET', path: `${base}/cms/posts`, field: 'Query.cmsPosts', auth: 'public', tag: 'Content and events', summary: 'Published posts (search, page, limit)' },
  { method: 'GET', path: `${base}/cms/posts/:slug`, field: 'Query.cmsPost', auth: 'public', tag: 'Content and events', summary: 'A published post with its blocks' },
  { method: 'GET', path: `${base}/cms/categories`, field: 'Query.contentCategories', auth: 'public', tag: 'Content and events', summary: 'Content categories' },
  { method: 'GET', path: `${base}/cms/menus/:location`, field: 'Query.cmsMenu', auth: 'public', tag: 'Content and events', summary: 'The menu of a location' },
  { method: 'GET', path: `${base}/events`, field: 'Query.events', auth: 'optional', tag: 'Content and events', summary: 'Upcoming events (search, page, limit)' },
  { method: 'GET', path: `${base}/events/:slug`, field: 'Query.event', auth: 'optional', tag: 'Content and events', summary: 'An event' },
  { method: 'POST', path: `${base}/event-registrations`, field: 'Mutation.registerForEvent', auth: 'optional', tag: 'Content and events', status: 201, summary: 'Register for an event' },
  { method: 'GET', path: `${base}/event-registrations/:id/access`, field: 'Query.eventRegistrationAccess', auth: 'optional', tag: 'Content and events', summary: 'Whether a registration grants entry' },
  { method: 'GET', path: `${base}/surveys/:slug`, field: 'Query.survey', auth: 'optional', tag: 'Forms, surveys, storefront', summary: 'A published survey' },
  { method: 'GET', path: `${base}/surveys/token/:token`, field: 'Query.invitedSurvey', auth: 'magic', tag: 'Forms, surveys, storefront', summary: 'The survey of an invitation link' },
  { method: 'POST', path: `${base}/surveys/:id/responses`, field: 'Mutation.respondToSurvey', auth: 'optional', tag: 'Forms, surveys, storefront', status: 201, summary: 'Answer a survey' },
  { method: 'POST', path: `${base}/surveys/token/:token/responses`, field: 'Mutation.respondToInvitation', auth: 'magic', tag: 'Forms, surveys, storefront', status: 201, summary: 'Answer through an invitation link (once)' },
  { method: 'POST', path: `${base}/contact`, field: 'Mutation.submitContactInquiry', auth: 'public', tag: 'Forms, surveys, storefront', status: 201, summary: 'Send a contact inquiry' },
];

/** The customer portal v6 routes served so far (the contract's groups arrive with their subgraphs). */
export const customerPortalRoutes: RestRoute[] = [...memberRoutes, ...bookingRoutes, ...contentRoutes];
