import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys.ts';
import { ApiKeyId, NewApiKeyInput } from './api-key.inputs.ts';
import { ApiKeyNode, ApiKeyPage, CreateApiKeyInput, CreatedApiKey } from './api-key.types.ts';

/** The company's API keys: list, create (the secret shown once), revoke. */
@Resolver(() => ApiKeyNode)
export class ApiKeyResolver {
  @Requires('merchant', 'account')
  @Query(() => ApiKeyPage, { description: "The company's API keys (never their secrets)." })
  async apiKeys(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return listApiKeys(ctx, args);
  }

  @Requires('merchant', 'account')
  @Mutation(() => CreatedApiKey, { description: 'Creates an API key; its secret is in `key`, shown this once.' })
  async createApiKey(@Ctx() ctx: RequestContext, @Arg('input', () => CreateApiKeyInput, { description: "The new key's name." }) input: CreateApiKeyInput) {
    return createApiKey(ctx, parse(NewApiKeyInput, input));
  }

  @Requires('merchant', 'account')
  @Mutation(() => ApiKeyNode, { description: 'Revokes an API key; it is refused from then on.' })
  async revokeApiKey(
    @Ctx() ctx: RequestContext,
    @Arg('apiKeyId', () => ID, { description: 'The id of the API key to revoke (from list_api_keys).' }) apiKeyId: string,
  ) {
    return revokeApiKey(ctx, parse(ApiKeyId, apiKeyId, 'apiKeyId'));
  }
}
