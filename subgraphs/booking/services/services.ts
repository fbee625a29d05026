/** Bookable services: define and change them (with their staff and resources), find and list them (their staff and resources: service-links.ts). */
import type { RequestContext } from '../../kernel/context.ts';
import { notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { parseAmount } from '../../kernel/money.ts';
import { requireOwn, requireOwnAll } from '../../kernel/ownership.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { Service, ServiceResource, ServiceStaff, type CancellationPolicy } from '../entities/service.ts';

export type ServiceRow = RowOf<'booking.service'>;

export const DEFAULT_POLICY: CancellationPolicy = { hoursBefore: 24, refundPercent: 100, description: 'Free cancellation up to 24 hours before the start.' };

/** A service's fields as the edge checked them (resolvers/service.inputs.ts); on a change, absent means unchanged. */
export interface ServiceChanges {
  name?: string | null;
  description?: string | null;
  prepNotes?: string | null;
  durationMinutes?: number | null;
  /** Per participant in major units ("49.00"), in the company currency. */
  price?: string | null;
  capacity?: number | null;
  /** Any id: one that is not a service category of this company is refused naming the field. */
  categoryId?: string | null;
  cancellationPolicy?: PolicyChanges | null;
  requiresStaff?: boolean | null;
  requiresResource?: boolean | null;
  staffIds?: string[] | null;
  resourceIds?: string[] | null;
  bufferBeforeMinutes?: number | null;
  bufferAfterMinutes?: number | null;
  minimumNoticeMinutes?: number | null;
  bookingHorizonDays?: number | null;
  active?: boolean | null;
}

export interface PolicyChanges {
  hoursBefore: number;
  refundPercent?: number | null;
  description?: string;
}

/** A policy without words gets words that say it. */
function policyOf(input: PolicyChanges): CancellationPolicy {
  const { hoursBefore } = input;
  const refundPercent = input.refundPercent ?? 100;
  const description =
    input.description ??
    (hoursBefore === 0
      ? 'Cancel or reschedule any time before the start.'
      : `Cancel or reschedule up to ${hoursBefore} hours before the start; ${refundPercent}% refund.`);
  return { hoursBefore, refundPercent, description };
}

/**
 * Applies a create or update to a service row inside the caller's transaction (`tx`): its flush
 * writes everything atomically. What is left to check needs the company: the price in its
 * currency, and that the category, staff and resources are its own.
 */
async function apply(ctx: RequestContext, service: Service, input: ServiceChanges, currency: string) {
  applyChanges(service, input, {
    set: [
      'name',
      'durationMinutes',
      'capacity',
      'bufferBeforeMinutes',
      'bufferAfterMinutes',
      'minimumNoticeMinutes',
      'bookingHorizonDays',
      'requiresStaff',
      'requiresResource',
      'active',
    ],
    clearable: ['description', 'prepNotes'],
  });
  if (input.price != null) service.priceMinor = parseAmount('price', input.price, currency);
  if (input.cancellationPolicy != null) service.cancellationPolicy = policyOf(input.cancellationPolicy);
  if (input.categoryId !== undefined)
    service.categoryId =
      input.categoryId === null ? null : await requireOwn(ctx, 'booking.service_category', 'categoryId', input.categoryId, 'a service category');
  if (input.staffIds != null) {
    const ids = await requireOwnAll(ctx, 'booking.staff_member', 'staffIds', input.staffIds, 'staff members');
    ctx.em.remove(await ctx.em.find(ServiceStaff, { serviceId: service.id }));
    for (const staffId of ids) ctx.em.create(ServiceStaff, { serviceId: service.id, staffId });
  }
  if (input.resourceIds != null) {
    const ids = await requireOwnAll(ctx, 'booking.resource', 'resourceIds', input.resourceIds, 'resources');
    ctx.em.remove(await ctx.em.find(ServiceResource, { serviceId: service.id }));
    for (const resourceId of ids) ctx.em.create(ServiceResource, { serviceId: service.id, resourceId });
  }
}

/** A new service in the company currency (the edge requires name, durationMinutes and price). */
export async function createService(ctx: RequestContext, input: ServiceChanges) {
  const { currency } = await tenantSettings(ctx);
  return ctx.transaction(async (tx) => {
    const service = tx.em.create(Service, {
      id: newId(),
      name: '',
      durationMinutes: 0,
      priceMinor: 0,
      currency,
      capacity: 1,
      requiresStaff: false,
      requiresResource: false,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      minimumNoticeMinutes: 60,
      bookingHorizonDays: 60,
      cancellationPolicy: DEFAULT_POLICY,
      active: true,
    });
    // Listing staff or resources implies needing them unless said otherwise (null says nothing, as left out).
    const requiresStaff = input.requiresStaff ?? !!input.staffIds?.length;
    const requiresResource = input.requiresResource ?? !!input.resourceIds?.length;
    await apply(tx, service, { ...input, requiresStaff, requiresResource }, currency);
    return service;
  });
}

export async function updateService(ctx: RequestContext, serviceId: string, input: ServiceChanges) {
  return ctx.transaction(async (tx) => {
    const service = await tx.em.findOne(Service, { id: serviceId });
    if (!service) throw notFound('Service');
    await apply(tx, service, input, service.currency);
    return service;
  });
}

/** A service to read (a plain row); NOT_FOUND when absent, another company's, or inactive with `activeOnly`. */
export async function getService(ctx: RequestContext, id: string, options: { activeOnly?: boolean } = {}): Promise<ServiceRow> {
  let select = ctx.query.selectFrom('booking.service').selectAll().where('id', '=', id);
  if (options.activeOnly) select = select.where('active', '=', true);
  const service = await ctx.first(select);
  if (!service) throw notFound('Service');
  return service;
}

export async function listServices(
  ctx: RequestContext,
  args: { search?: string | null; page?: number | null; limit?: number | null },
  options: { activeOnly: boolean },
) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('booking.service').selectAll().orderBy('name').orderBy('id');
  if (options.activeOnly) select = select.where('active', '=', true);
  const search = req.search && likePattern(req.search);
  if (search) select = select.where((e) => e.or([e('name', 'ilike', search), e('description', 'ilike', search)]));
  return ctx.page(select, req);
}

/** A service a booking names, batched with the request's other lookups (null when gone). */
export const findService = (ctx: RequestContext, serviceId: string): Promise<ServiceRow | null> => ctx.find('booking.service', serviceId);
