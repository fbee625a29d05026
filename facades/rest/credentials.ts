import type { AuthCheckerFn, ResolverData } from 'type-graphql';
import { accessOf, authChecker, type Access } from '../../subgraphs/kernel/access.ts';
import type { RequestContext } from '../../subgraphs/kernel/context.ts';
import type { Database } from '../../subgraphs/kernel/database.ts';
import { AppError, unauthenticated } from '../../subgraphs/kernel/errors.ts';
import { resolvePrincipal, type HeaderReader, type Principal } from '../../subgraphs/kernel/principal.ts';
import { toErrorBody, type ErrorBody } from '../errors.ts';

/**
 * Authentication before validation, for the REST routes (facade.ts) and the legacy adapters
 * (legacy.ts): a route whose root field needs a credential of the caller's own (`customer`,
 * `merchant`, as declared once on the field, kernel/access.ts) refuses a caller without a good one
 * before anything reads the request's inputs, so such a caller learns nothing of a route's
 * parameters. (The merchant tools' routes get the same from the MCP facade's caller check, which
 * runs before their inputs are read: tool-routes.ts.)
 */

/** The access levels that need a credential: a customer token, an API key or a merchant session. */
export const needsCredential = (access: Access): boolean => access === 'customer' || access === 'merchant';

/** The declared access of each root field (`Query.findCustomers`) a route may run. */
export const accessesOf = (fields: readonly string[]): Access[] => fields.map(accessOf);

const ANONYMOUS: Principal = { kind: 'anonymous', companyId: null };

/** The resolver guard itself (a function, kernel/access.ts), given a principal: one rule for GraphQL and REST. */
const guard = authChecker as AuthCheckerFn<RequestContext, Access>;
const admits = (access: Access, principal: Principal) =>
  guard({ context: { authenticate: async () => principal } } as unknown as ResolverData<RequestContext>, [access]);

/**
 * The refusal of a caller who may run none of the root fields of `accesses`, in the resolver
 * guard's own words and status (401 without a credential or with a bad one, 403 for the wrong
 * kind), or undefined when one of them admits the caller or none needs a credential. The
 * credential is checked by the kernel's principal resolution (cached: the operation that runs next
 * finds it resolved); without an Authorization header nothing is looked up.
 */
export async function credentialRefusal(
  db: Database,
  secret: string,
  header: HeaderReader,
  accesses: readonly Access[],
): Promise<{ status: number; body: ErrorBody } | undefined> {
  if (!accesses.length || !accesses.every(needsCredential)) return undefined;
  let principal = ANONYMOUS;
  if (header('authorization')?.trim()) {
    try {
      principal = await resolvePrincipal(db, secret, header);
    } catch (error) {
      if (error instanceof AppError) return toErrorBody(error);
      throw error;
    }
  }
  let refusal: AppError | undefined;
  for (const access of accesses) {
    try {
      if (await admits(access, principal)) return undefined;
      refusal ??= unauthenticated();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refusal ??= error;
    }
  }
  return toErrorBody(refusal!);
}
