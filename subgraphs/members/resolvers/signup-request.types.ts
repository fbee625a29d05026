/** GraphQL shapes of organisation signup: the request, its verification and what a completed signup returns. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('OrganisationSignupRequest')
export class OrganisationSignupRequest {
  @Field(() => ID) requestId!: string;
  @Field(() => DateTime) expiresAt!: Date;
}

@ObjectType('OrganisationSignup')
export class OrganisationSignup {
  @Field(() => String, { description: 'The first API key (svc_mcp_…), shown this once.' }) apiKey!: string;
  @Field(() => ID) companyId!: string;
  @Field(() => String, { description: 'A one-time dashboard sign-in link.' }) loginUrl!: string;
}

// Inputs: flat in REST and MCP, one object in GraphQL.

@InputType()
export class OrganisationSignupInput {
  @Field(() => String, { description: 'Email of the owner; the verification code is sent there.' }) email!: string;
  @Field(() => String, { description: 'Name of the business.' }) organisationName!: string;
  @Field(() => String, { description: "The business's industry, e.g. salon, fitness, clinic." }) industry!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2 country code.' }) country!: string;
}

@InputType()
export class OrganisationVerifyInput {
  @Field(() => ID, { description: 'The requestId returned by register_organisation_request.' }) requestId!: string;
  @Field(() => String, { description: 'The 6-digit one-time code from the email, as a string ("012345").' }) code!: string;
}
