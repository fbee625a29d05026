/** Resources: the rooms and equipment services use. */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { requireText } from '../../kernel/validation.ts';
import { Resource } from '../entities/resource.ts';

export async function createResource(ctx: RequestContext, input: { name?: string; type?: string }) {
  const type = requireText('type', input.type, 60).toLowerCase();
  const name = requireText('name', input.name, 120);
  return ctx.transaction(async (tx) => tx.em.create(Resource, { id: newId(), name, type, active: true }));
}
