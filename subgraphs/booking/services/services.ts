/** Bookable services: define and change them (with their staff and resources), find and list them. */
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { parseAmount } from '../../kernel/money.ts';
import { requireOwn, requireOwnAll } from '../../kernel/ownership.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { optionalText, requireText } from '../../kernel/validation.ts';
import { Service, ServiceResource, ServiceStaff, type CancellationPolicy } from '../entities/service.ts';

export type ServiceRow = RowOf<'booking.service'>;

export const DEFAULT_POLICY: CancellationPolicy = { hoursBefore: 24, refundPercent: 100, description: 'Free cancellation up to 24 hours before the start.' };

export interface ServiceInput {
  name?: string | null;
  description?: string | null;
  prepNotes?: string | null;
  durationMinutes?: number | null;
  price?: string | null;
  capacity?: number | null;
  categoryId?: string | null;
  cancellationPolicy?: { hoursBefore: number; refundPercent?: number | null; description?: string | null } | null;
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

function intIn(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw badInput(field, `must be a whole number from ${min} to ${max}`);
  return value;
}

function policyOf(input: NonNullable<ServiceInput['cancellationPolicy']>): CancellationPolicy {
  const hoursBefore = intIn('cancellationPolicy.hoursBefore', input.hoursBefore, 0, 24 * 90);
  const refundPercent = intIn('cancellationPolicy.refundPercent', input.refundPercent ?? 100, 0, 100);
  const description =
    optionalText('cancellationPolicy.description', input.description, 500) ??
    (hoursBefore === 0 ? 'Cancel or reschedule any time before the start.' : `Cancel or reschedule up to ${hoursBefore} hours before the start; ${refundPercent}% refund.`);
  return { hoursBefore, refundPercent, description };
}

/**
 * Applies a create or update to a service row, validating each given field, inside the caller's
 * transaction (`tx`): its flush writes everything atomically.
 */
async function apply(ctx: RequestContext, service: Service, input: ServiceInput, currency: string) {
  if (input.name != null) service.name = requireText('name', input.name, 120);
  if (input.description !== undefined) service.description = optionalText('description', input.description, 2000) ?? null;
  if (input.prepNotes !== undefined) service.prepNotes = optionalText('prepNotes', input.prepNotes, 2000) ?? null;
  if (input.durationMinutes != null) service.durationMinutes = intIn('durationMinutes', input.durationMinutes, 5, 1440);
  if (input.price != null) service.priceMinor = parseAmount('price', input.price, currency);
  if (input.capacity != null) service.capacity = intIn('capacity', input.capacity, 1, 1000);
  if (input.bufferBeforeMinutes != null) service.bufferBeforeMinutes = intIn('bufferBeforeMinutes', input.bufferBeforeMinutes, 0, 480);
  if (input.bufferAfterMinutes != null) service.bufferAfterMinutes = intIn('bufferAfterMinutes', input.bufferAfterMinutes, 0, 480);
  if (input.minimumNoticeMinutes != null) service.minimumNoticeMinutes = intIn('minimumNoticeMinutes', input.minimumNoticeMinutes, 0, 60 * 24 * 90);
  if (input.bookingHorizonDays != null) service.bookingHorizonDays = intIn('bookingHorizonDays', input.bookingHorizonDays, 1, 730);
  if (input.requiresStaff != null) service.requiresStaff = input.requiresStaff;
  if (input.requiresResource != null) service.requiresResource = input.requiresResource;
  if (input.active != null) service.active = input.active;
  if (input.cancellationPolicy != null) service.cancellationPolicy = policyOf(input.cancellationPolicy);
  if (input.categoryId !== undefined) service.categoryId = input.categoryId === null ? null : await requireOwn(ctx, 'booking.service_category', 'categoryId', input.categoryId, 'a service category');
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

export async function createService(ctx: RequestContext, input: ServiceInput, currency: string) {
  requireText('name', input.name, 120);
  if (input.durationMinutes == null) throw badInput('durationMinutes', 'is required');
  if (input.price == null) throw badInput('price', 'is required');
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
    await apply(tx, service, { ...stripUndefined(input), requiresStaff, requiresResource }, currency);
    return service;
  });
}

export async function updateService(ctx: RequestContext, serviceId: string, input: ServiceInput) {
  if (!isUuid(serviceId)) throw badInput('serviceId', 'must be a service id');
  return ctx.transaction(async (tx) => {
    const service = await tx.em.findOne(Service, { id: serviceId });
    if (!service) throw notFound('Service');
    await apply(tx, service, stripUndefined(input), service.currency);
    return service;
  });
}

const stripUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** A service to read (a plain row); NOT_FOUND when absent, another company's, or inactive with `activeOnly`. */
export async function getService(ctx: RequestContext, id: unknown, field = 'id', options: { activeOnly?: boolean } = {}): Promise<ServiceRow> {
  if (!isUuid(id)) throw badInput(field, 'must be a service id');
  let select = ctx.query.selectFrom('booking.service').selectAll().where('id', '=', id);
  if (options.activeOnly) select = select.where('active', '=', true);
  const service = await ctx.first(select);
  if (!service) throw notFound('Service');
  return service;
}

export async function listServices(ctx: RequestContext, args: { search?: string | null; page?: number | null; limit?: number | null }, options: { activeOnly: boolean }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('booking.service').selectAll().orderBy('name').orderBy('id');
  if (options.activeOnly) select = select.where('active', '=', true);
  const search = req.search && likePattern(req.search);
  if (search) select = select.where((e) => e.or([e('name', 'ilike', search), e('description', 'ilike', search)]));
  return ctx.page(select, req);
}

/** The active staff of many services at once, in one statement (links and people): the list's loader. */
export async function staffOfServices(ctx: RequestContext, serviceIds: readonly string[]): Promise<RowOf<'booking.staff_member'>[][]> {
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
export async function resourcesOfServices(ctx: RequestContext, serviceIds: readonly string[]): Promise<RowOf<'booking.resource'>[][]> {
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
