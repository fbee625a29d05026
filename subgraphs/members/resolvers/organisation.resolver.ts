import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { resolveDomain } from '../services/companies.ts';
import { exchangeLoginLink, requestSignup, verifySignup } from '../services/signup.ts';
import { tenantContext } from './mappers.ts';
import { MerchantSession, OrganisationSignup, OrganisationSignupInput, OrganisationSignupRequest, OrganisationVerifyInput, TenantContext, Viewer } from './types.ts';

/** What needs no tenant: organisation signup, dashboard sign-in links, storefront domain resolution. */
@Resolver()
export class OrganisationResolver {
  @Requires('anyone')
  @Mutation(() => OrganisationSignupRequest, { description: 'Starts an organisation signup: emails a 6-digit code.' })
  async registerOrganisationRequest(@Ctx() ctx: RequestContext, @Arg('input', () => OrganisationSignupInput) input: OrganisationSignupInput) {
    return requestSignup(ctx, input);
  }

  @Requires('anyone')
  @Mutation(() => OrganisationSignup, { description: 'Completes a signup: returns the first API key, the company id and a dashboard link.' })
  async registerOrganisationVerify(@Ctx() ctx: RequestContext, @Arg('input', () => OrganisationVerifyInput) input: OrganisationVerifyInput) {
    return verifySignup(ctx, input);
  }

  @Requires('anyone')
  @Mutation(() => MerchantSession, { description: 'Exchanges a one-time dashboard link token for a merchant session token.' })
  async exchangeLoginLink(@Ctx() ctx: RequestContext, @Arg('token', () => String) token: string) {
    return exchangeLoginLink(ctx, token);
  }

  @Requires('anyone')
  @Query(() => TenantContext, { description: 'The tenant that a storefront host name belongs to.' })
  async resolveStorefrontDomain(@Ctx() ctx: RequestContext, @Arg('domain', () => String) domain: string) {
    return tenantContext(await resolveDomain(ctx.em, domain));
  }

  @Requires('anyone')
  @Query(() => Viewer, { description: 'Who this request is made as.' })
  async viewer(@Ctx() ctx: RequestContext) {
    const p = ctx.principal;
    return { kind: p.kind, companyId: p.companyId, customerId: p.kind === 'customer' ? p.customerId : null };
  }
}
