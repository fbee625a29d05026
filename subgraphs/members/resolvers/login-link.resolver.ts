import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { parse } from '../../kernel/schemas.ts';
import { exchangeLoginLink } from '../services/login-links.ts';
import { LoginLinkToken } from './login-link.inputs.ts';
import { MerchantSession } from './login-link.types.ts';

/** Dashboard sign-in links, which need no tenant: the link's token names it. */
@Resolver()
export class LoginLinkResolver {
  @Requires('none', 'account')
  @Mutation(() => MerchantSession, { description: 'Exchanges a one-time dashboard link token for a merchant session token.' })
  async exchangeLoginLink(@Ctx() ctx: RequestContext, @Arg('token', () => String, { description: 'The one-time token from the sign-in link.' }) token: string) {
    return exchangeLoginLink(ctx, parse(LoginLinkToken, token, 'token'));
  }
}
