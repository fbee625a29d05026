import { Arg, Ctx, Directive, ID, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { parseDate } from '../../kernel/time.ts';
import { getService } from '../services/services.ts';
import { computeSlots } from '../services/slots.ts';
import { SlotList, SlotNode, slotNode } from './slot.types.ts';

/** Open times of a service: for the storefront by day, for merchants over a range. */
@Resolver()
export class SlotResolver {
  @Requires('public')
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
  ) {
    const day = parseDate('date', date);
    const service = await getService(ctx, id, 'id', { activeOnly: true });
    const { timeZone } = await tenantSettings(ctx);
    const slots = await computeSlots(ctx, service, day, day, { staffId, resourceId });
    return { serviceId: service.id, date: day, timeZone, items: slots.map(slotNode) };
  }

  @Requires('merchant')
  // Cost analysis: a range of days holds many slots; each is computed (@cost on the list counts per entry).
  @Directive('@listSize(assumedSize: 100)')
  @Directive('@cost(weight: 3)')
  @Query(() => [SlotNode], { description: 'Open times of a service between two dates; empty when fully booked.' })
  async availableSlots(
    @Ctx() ctx: RequestContext,
    @Arg('serviceId', () => ID, { description: "The service's id (from list_services)." }) serviceId: string,
    @Arg('startDate', () => String, { description: 'YYYY-MM-DD' }) startDate: string,
    @Arg('endDate', () => String, { description: 'YYYY-MM-DD, inclusive' }) endDate: string,
  ) {
    const service = await getService(ctx, serviceId, 'serviceId');
    return (await computeSlots(ctx, service, parseDate('startDate', startDate), parseDate('endDate', endDate))).map(slotNode);
  }
}
