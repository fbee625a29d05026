/** Resources: the rooms and equipment services use. */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { Resource } from '../entities/resource.ts';

/** A resource as the edge checked it: its name, and its type in lower case ("room"). */
export interface NewResource {
  name: string;
  type: string;
}

export async function createResource(ctx: RequestContext, input: NewResource) {
  return ctx.transaction(async (tx) => tx.em.create(Resource, { id: newId(), name: input.name, type: input.type, active: true }));
}

/** A resource a booking names, batched with the request's other lookups (null when gone). */
export const findResource = (ctx: RequestContext, resourceId: string): Promise<RowOf<'booking.resource'> | null> => ctx.find('booking.resource', resourceId);
