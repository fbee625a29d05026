import { Arg, Args, Ctx, FieldResolver, ID, InputType, Field, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys.ts';
import { addStorefrontDomain, getCompany, listStorefrontDomains, updateCompanySettings } from '../services/companies.ts';
import { domainNode } from './mappers.ts';
import { ApiKeyNode, ApiKeyPage, CompanyNode, CompanySettingsInput, CreatedApiKey, StorefrontDomainNode } from './types.ts';

@InputType()
export class CreateApiKeyInput {
  @Field(() => String) name!: string;
}

@InputType()
export class AddStorefrontDomainInput {
  @Field(() => String, { description: 'Host name of the storefront, such as shop.example.com.' }) domain!: string;
}

/** The merchant's own company: settings, storefront domains and API keys. */
@Resolver(() => CompanyNode)
export class CompanyResolver {
  @Requires('merchant')
  @Query(() => CompanyNode, { description: "The caller's company." })
  async company(@Ctx() ctx: RequestContext) {
    return getCompany(ctx);
  }

  @Requires('merchant')
  @Mutation(() => CompanyNode, { description: 'Changes time zone, currency, login channel or registration form.' })
  async updateCompanySettings(@Ctx() ctx: RequestContext, @Arg('input', () => CompanySettingsInput) input: CompanySettingsInput) {
    return updateCompanySettings(ctx, input);
  }

  @Requires('merchant')
  @Mutation(() => StorefrontDomainNode, { description: 'Serves the storefront on another host name.' })
  async addStorefrontDomain(@Ctx() ctx: RequestContext, @Arg('input', () => AddStorefrontDomainInput) input: AddStorefrontDomainInput) {
    return domainNode(await addStorefrontDomain(ctx, input.domain));
  }

  @Requires('merchant')
  @Query(() => ApiKeyPage, { description: "The company's API keys (never their secrets)." })
  async apiKeys(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return listApiKeys(ctx, args);
  }

  @Requires('merchant')
  @Mutation(() => CreatedApiKey, { description: 'Creates an API key; its secret is in `key`, shown this once.' })
  async createApiKey(@Ctx() ctx: RequestContext, @Arg('input', () => CreateApiKeyInput) input: CreateApiKeyInput) {
    return createApiKey(ctx, input.name);
  }

  @Requires('merchant')
  @Mutation(() => ApiKeyNode, { description: 'Revokes an API key; it is refused from then on.' })
  async revokeApiKey(@Ctx() ctx: RequestContext, @Arg('apiKeyId', () => ID) apiKeyId: string) {
    return revokeApiKey(ctx, apiKeyId);
  }

  @FieldResolver(() => [StorefrontDomainNode])
  async domains(@Ctx() ctx: RequestContext, @Root() _company: CompanyNode) {
    return (await listStorefrontDomains(ctx)).map(domainNode);
  }
}
