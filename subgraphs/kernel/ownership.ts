/** Checks on ids a caller gives: well-formed and of the caller's company (the em's tenant filter), or 400 naming the field. */
import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from './errors.ts';
import { isUuid } from './ids.ts';

interface Identified {
  id: string;
}

/** The id of a row of this company, or 400 naming `field`: "is not `what` of this company" (`what` as "a product"). */
export async function requireOwn<T extends Identified>(em: EntityManager, entity: EntityName<T>, field: string, id: unknown, what: string): Promise<string> {
  if (!isUuid(id) || !(await em.findOne(entity as EntityName<Identified>, { id }, { fields: ['id'] }))) throw badInput(field, `is not ${what} of this company`);
  return id;
}

/** The ids (each once, in the order given) of rows of this company, or 400 naming `field` (`what` as "products"). */
export async function requireOwnAll<T extends Identified>(em: EntityManager, entity: EntityName<T>, field: string, ids: readonly unknown[], what: string): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.every(isUuid)) throw badInput(field, 'must be ids');
  const found = unique.length ? await em.find(entity as EntityName<Identified>, { id: { $in: unique } }, { fields: ['id'] }) : [];
  if (found.length !== unique.length) throw badInput(field, `contains ids that are not ${what} of this company`);
  return unique;
}
