/**
 * The toolsets: every root field (and so every tool and REST route) belongs to one, named after its
 * domain. An agent narrows its tools to some of them, and a key's scopes are `<toolset>:read` and
 * `<toolset>:write`. A new domain adds its toolset here with the fields that declare it.
 */
export const TOOLSETS = {
  account: 'The company: its settings and storefront domains, API keys, its plan and usage, the audit log and organisation signup.',
  booking: 'Services and their categories, staff members, resources, working hours, available slots and bookings.',
  customers: "The company's customers: tags, and erasure.",
  content: 'Pages, posts and their types, blocks, menus and contact inquiries.',
  events: 'Events and their registrations.',
  surveys: 'Surveys, invitations and responses.',
  shop: 'Products, categories, brands, collections, stock, shipping and payment methods.',
  orders: 'Shop orders: taking, paying, fulfilling, cancelling and refunding them.',
  promotions: 'Promotion codes and their validation.',
  loyalty: 'Points rules, membership tiers, points, gift offers and redemptions.',
  campaigns: 'Campaigns, customer segments and deliveries.',
  messaging: 'The company’s messaging channels: connecting its WhatsApp Business number and its Twilio account for SMS.',
} as const;

export type Toolset = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as Toolset[];
