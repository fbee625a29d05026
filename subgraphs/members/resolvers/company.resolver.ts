import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { parse } from '../../kernel/schemas.ts';
import { addStorefrontDomain, getCompany, listStorefrontDomains, resolveDomain, updateCompanySettings } from '../services/companies.ts';
import { CompanySettings, Host, NewStorefrontDomain } from './company.inputs.ts';
import {
  AddStorefrontDomainInput,
  CompanyNode,
  CompanySettingsInput,
  domainNode,
  StorefrontDomainNode,
  TenantContext,
  tenantContext,
} from './company.types.ts';

/** The merchant's own company (settings, storefront domains), and which tenant a storefront host belongs to. */
@Resolver(() => CompanyNode)
export class CompanyResolver {
  @Requires('merchant', 'account')
  @Query(() => CompanyNode, { description: "The caller's company." })
  async company(@Ctx() ctx: RequestContext) {
    return getCompany(ctx);
  }

  @Requires('merchant', 'account')
  @Mutation(() => CompanyNode, { description: 'Changes time zone, currency, login channel or registration form.' })
  async updateCompanySettings(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CompanySettingsInput, { description: 'The settings to change; fields left out keep their value.' }) input: CompanySettingsInput,
  ) {
    return updateCompanySettings(ctx, parse(CompanySettings, input));
  }

  @Requires('merchant', 'account')
  @Mutation(() => StorefrontDomainNode, { description: 'Serves the storefront on another host name.' })
  async addStorefrontDomain(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => AddStorefrontDomainInput, { description: 'The domain to add.' }) input: AddStorefrontDomainInput,
  ) {
    return domainNode(await addStorefrontDomain(ctx, parse(NewStorefrontDomain, input).domain));
  }

  // Needs no tenant: the caller does not know its tenant yet.
  @Requires('none', 'account')
  @Query(() => TenantContext, { description: 'The tenant that a storefront host name belongs to.' })
  async resolveStorefrontDomain(
    @Ctx() ctx: RequestContext,
    @Arg('domain', () => String, { description: "The storefront's host name, e.g. shop.example.com." }) domain: string,
  ) {
    return tenantContext(await resolveDomain(ctx, parse(Host, domain, 'domain')));
  }

  @FieldResolver(() => [StorefrontDomainNode])
  async domains(@Ctx() ctx: RequestContext, @Root() _company: CompanyNode) {
    return (await listStorefrontDomains(ctx)).map(domainNode);
  }
}
