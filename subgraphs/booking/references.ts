/** How the router resolves booking's entities referenced from other subgraphs (`__resolveReference`). */
import type { ReferenceResolver } from '../kernel/federation.ts';
import { isUuid } from '../kernel/ids.ts';

export const bookingReferences: Record<string, ReferenceResolver> = {
  // members' Customer, extended here with its bookings: the id is all booking needs.
  Customer: (ref: { id: string }) => ({ id: ref.id }),
  Booking: (ref: { id: string }, ctx) => (ctx.principal.kind === 'merchant' && isUuid(ref.id) ? ctx.find('booking.booking', ref.id) : null),
};
