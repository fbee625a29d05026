/** GraphQL shapes of merchant API keys: the key (never its secret), a new key with its secret, the create input. */
import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';

export enum ApiKeyStatus {
  ACTIVE = 'ACTIVE',
  REVOKED = 'REVOKED',
}
registerEnumType(ApiKeyStatus, {
  name: 'ApiKeyStatus',
  description: 'Whether an API key is accepted.',
  valuesConfig: {
    ACTIVE: { description: 'Accepted on every interface.' },
    REVOKED: { description: 'Refused from the moment it was revoked. Final (revoking again changes nothing).' },
  },
});

@ObjectType('ApiKey', { description: 'A merchant API key; its secret is shown only when created.' })
export class ApiKeyNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'The first characters of the key, to recognise it.' }) prefix!: string;
  @Field(() => ApiKeyStatus) status!: ApiKeyStatus;
  @Field(() => [String], { description: 'What the key may do: "*" (everything), "<toolset>:read" or "<toolset>:write" (which implies read).' })
  scopes!: string[];
  @Field(() => [String], { nullable: true, description: 'The toolsets an MCP connection with this key shows unless it names others; null: all.' }) toolsets?:
    string[] | null;
  @Field(() => Boolean, { description: 'An MCP connection with this key only lists and calls tools that read.' }) readOnly!: boolean;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime, { nullable: true }) lastUsedAt?: Date | null;
  @Field(() => DateTime, { nullable: true }) revokedAt?: Date | null;
}

@ObjectType('CreatedApiKey', { description: 'A new API key with its secret, shown this once.' })
export class CreatedApiKey extends ApiKeyNode {
  @Field(() => String, { description: 'The whole key (svc_mcp_…). Store it now: it is never shown again.' }) key!: string;
}

export const ApiKeyPage = PageOf(ApiKeyNode, 'ApiKeyPage');

@InputType()
export class CreateApiKeyInput {
  @Field(() => String, { description: 'A name to recognise the key by, e.g. "Booking agent".' }) name!: string;
  @Field(() => [String], {
    nullable: true,
    description: 'What the key may do: "<toolset>:read", "<toolset>:write" (implies read) or "*"; default ["*"]. Only scopes the creating credential has.',
  })
  scopes?: string[];
  @Field(() => [String], { nullable: true, description: 'Toolsets an MCP connection with this key shows by default (e.g. ["booking"]); default all.' })
  toolsets?: string[];
  @Field(() => Boolean, { nullable: true, description: 'MCP connections with this key only read (default false).' }) readOnly?: boolean;
}
