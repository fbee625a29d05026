/**
 * Who performs a service and what it uses: the active staff and resources linked to it, read for
 * many services in one statement (a list's DataLoader) or for one service as a page.
 */
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { pageOfAll, pageRequest, type ListQuery } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { getService } from './services.ts';

type StaffRow = RowOf<'booking.staff_member'>;
type ResourceRow = RowOf<'booking.resource'>;

/** The active staff of many services at once, in one statement (links and people): the list's loader. */
export async function staffOfServices(ctx: RequestContext, serviceIds: readonly string[]): Promise<StaffRow[][]> {
  const rows = await ctx.all(
    ctx.query
      .selectFrom('booking.staff_member as m')
      .innerJoin('booking.service_staff as l', 'l.staffId', 'm.id')
      .selectAll('m')
      .select('l.serviceId')
      .where('l.serviceId', '=', anyOf(serviceIds))
      .where('m.active', '=', true)
      .orderBy('m.name')
      .orderBy('m.id'),
  );
  return perKey(serviceIds, rows, (r) => r.serviceId);
}

/** The active resources of many services at once, in one statement. */
export async function resourcesOfServices(ctx: RequestContext, serviceIds: readonly string[]): Promise<ResourceRow[][]> {
  const rows = await ctx.all(
    ctx.query
      .selectFrom('booking.resource as r')
      .innerJoin('booking.service_resource as l', 'l.resourceId', 'r.id')
      .selectAll('r')
      .select('l.serviceId')
      .where('l.serviceId', '=', anyOf(serviceIds))
      .where('r.active', '=', true)
      .orderBy('r.name')
      .orderBy('r.id'),
  );
  return perKey(serviceIds, rows, (r) => r.serviceId);
}

/** A service's staff, batched with those of the other services in the same list. */
export const staffOfService = (ctx: RequestContext, serviceId: string): Promise<StaffRow[]> =>
  ctx.loader('booking.serviceStaff', (ids: readonly string[]) => staffOfServices(ctx, ids)).load(serviceId);

/** A service's resources, batched with those of the other services in the same list. */
export const resourcesOfService = (ctx: RequestContext, serviceId: string): Promise<ResourceRow[]> =>
  ctx.loader('booking.serviceResources', (ids: readonly string[]) => resourcesOfServices(ctx, ids)).load(serviceId);

// A service's staff (and resources) are a short list, loaded whole: a page is a slice of it.

/** A page of the staff of an active service. */
export async function serviceStaffPage(ctx: RequestContext, serviceId: string, args: ListQuery) {
  const service = await getService(ctx, serviceId, { activeOnly: true });
  const [staff] = await staffOfServices(ctx, [service.id]);
  return pageOfAll(staff, pageRequest(args));
}

/** A page of the resources of an active service. */
export async function serviceResourcesPage(ctx: RequestContext, serviceId: string, args: ListQuery) {
  const service = await getService(ctx, serviceId, { activeOnly: true });
  const [resources] = await resourcesOfServices(ctx, [service.id]);
  return pageOfAll(resources, pageRequest(args));
}
