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
}
