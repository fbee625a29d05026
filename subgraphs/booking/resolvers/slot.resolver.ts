import { Arg, Ctx, Directive, ID, Int, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import { slotsBetween, slotsOnDay } from '../services/slots.ts';
import { ServiceDay, ServiceRange } from './slot.inputs.ts';
import { SlotList, SlotPage, slotNode } from './slot.types.ts';

const PAGE = 'Page number, at least 1 (default 1).';
const LIMIT = `Slots per page, between 1 and ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`;

/** Open times of a service: for the storefront by day, for merchants over a range. */
@Resolver()
export class SlotResolver {
  @Requires('public', 'booking')
  // Cost analysis (router/limits.ts): a day's availability is computed, not read; it weighs as
  // much as a few hundred plain objects (measured: ~5 ms against ~0.01 ms).
  @Directive('@cost(weight: 300)')
  @Query(() => SlotList, { description: 'Open times of a service on a date (company time zone).' })
  async serviceSlots(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, { description: "The service's id." }) id: string,
    @Arg('date', () => String, { description: 'YYYY-MM-DD' }) date: string,
    @Arg('staffId', () => ID, { nullable: true, description: 'Only times this staff member is free.' }) staffId?: string,
    @Arg('resourceId', () => ID, { nullable: true, description: 'Only times this resource is free.' }) resourceId?: string,
    @Arg('page', () => Int, { nullable: true, description: PAGE }) page?: number,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT }) limit?: number,
  ) {
    const day = await slotsOnDay(ctx, parse(ServiceDay, { date, id, staffId, resourceId }), { page, limit });
    return { ...day, items: day.items.map(slotNode) };
  }

  @Requires('merchant', 'booking')
  // Cost analysis: as serviceSlots, the range's availability is computed whatever the page asked
  // for (its items are sized by `limit`, as in every page).
  @Directive('@cost(weight: 300)')
  @Query(() => SlotPage, { description: 'A page of the open times of a service between two dates, earliest first; no items when fully booked.' })
  async availableSlots(
    @Ctx() ctx: RequestContext,
    @Arg('serviceId', () => ID, { description: "The service's id (from list_services)." }) serviceId: string,
    @Arg('startDate', () => String, { description: 'YYYY-MM-DD' }) startDate: string,
    @Arg('endDate', () => String, { description: 'YYYY-MM-DD, inclusive' }) endDate: string,
    @Arg('page', () => Int, { nullable: true, description: PAGE }) page?: number,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT }) limit?: number,
  ) {
    const slots = await slotsBetween(ctx, parse(ServiceRange, { serviceId, startDate, endDate }), { page, limit });
    return { ...slots, items: slots.items.map(slotNode) };
  }
}
