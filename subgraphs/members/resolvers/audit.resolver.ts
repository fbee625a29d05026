import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { listAuditLog } from '../services/audit.ts';
import { AuditEntryNode, AuditEntryPage, AuditLogArgs } from './audit.types.ts';

/** Who changed what, through which interface: the company's audit log. */
@Resolver(() => AuditEntryNode)
export class AuditResolver {
  @Requires('merchant', 'account')
  @Query(() => AuditEntryPage, { description: "The company's audit log of merchant and agent writes, newest first." })
  async auditLog(@Ctx() ctx: RequestContext, @Args(() => AuditLogArgs) args: AuditLogArgs) {
    return listAuditLog(ctx, args);
  }
}
