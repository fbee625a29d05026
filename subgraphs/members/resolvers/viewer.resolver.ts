import { Ctx, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { Viewer } from './viewer.types.ts';

/** Who the request is made as, for any caller (no tenant needed). */
@Resolver()
export class ViewerResolver {
  @Requires('none', 'account')
  @Query(() => Viewer, { description: 'Who this request is made as.' })
  async viewer(@Ctx() ctx: RequestContext) {
    const p = ctx.principal;
    return { kind: p.kind, companyId: p.companyId, customerId: p.kind === 'customer' ? p.customerId : null };
  }
}
