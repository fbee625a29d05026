import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime, JSONObject } from '../../kernel/scalars.ts';

export enum LoginChannel {
  email = 'email',
  sms = 'sms',
  whatsapp = 'whatsapp',
}
registerEnumType(LoginChannel, { name: 'LoginChannel', description: 'How customers receive their sign-in code.' });

export enum RegistrationFieldType {
  text = 'text',
  email = 'email',
  phone = 'phone',
  date = 'date',
  select = 'select',
  checkbox = 'checkbox',
}
registerEnumType(RegistrationFieldType, { name: 'RegistrationFieldType' });

export enum ApiKeyStatus {
  ACTIVE = 'ACTIVE',
  REVOKED = 'REVOKED',
}
registerEnumType(ApiKeyStatus, { name: 'ApiKeyStatus' });

@ObjectType('RegistrationField', { description: 'One field of the storefront registration form.' })
export class RegistrationFieldNode {
  @Field(() => String) key!: string;
  @Field(() => String) label!: string;
  @Field(() => RegistrationFieldType) type!: RegistrationFieldType;
  @Field(() => Boolean) required!: boolean;
  @Field(() => [String], { nullable: true }) options?: string[];
}

@InputType('RegistrationFieldInput')
export class RegistrationFieldInput {
  @Field(() => String) key!: string;
  @Field(() => String) label!: string;
  @Field(() => RegistrationFieldType) type!: RegistrationFieldType;
  @Field(() => Boolean, { nullable: true }) required?: boolean;
  @Field(() => [String], { nullable: true }) options?: string[];
}

@ObjectType('Company', { description: 'A business: the tenant every record belongs to.' })
export class CompanyNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => String) industry!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2 country code.' }) country!: string;
  @Field(() => String, { description: 'IANA time zone; dates such as 2026-05-01 mean that day here.' }) timeZone!: string;
  @Field(() => String, { description: 'ISO 4217 currency of prices and orders.' }) currency!: string;
  @Field(() => LoginChannel) loginChannel!: LoginChannel;
  @Field(() => [RegistrationFieldNode]) registrationFields!: RegistrationFieldNode[];
  @Field(() => [StorefrontDomainNode]) domains!: StorefrontDomainNode[];
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType('StorefrontDomain')
export class StorefrontDomainNode {
  @Field(() => ID) id!: string;
  @Field(() => String) domain!: string;
  @Field(() => ID) companyId!: string;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType('TenantContext', { description: 'What a storefront needs to know about its tenant.' })
export class TenantContext {
  @Field(() => ID) companyId!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => String) timeZone!: string;
  @Field(() => String) currency!: string;
  @Field(() => LoginChannel) loginChannel!: LoginChannel;
}

@ObjectType('Customer', { description: 'A customer of a company (a member of its storefront).' })
@Directive('@key(fields: "id")')
export class CustomerNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyId!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => String, { nullable: true }) source?: string | null;
  @Field(() => JSONObject, { nullable: true }) attributes?: Record<string, unknown> | null;
  @Field(() => Boolean) emailVerified!: boolean;
  @Field(() => Boolean) phoneVerified!: boolean;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType('LoginChannelInfo')
export class LoginChannelInfo {
  @Field(() => LoginChannel) channel!: LoginChannel;
  @Field(() => ID) companyId!: string;
}

@ObjectType('RegistrationForm')
export class RegistrationForm {
  @Field(() => ID) companyId!: string;
  @Field(() => [RegistrationFieldNode]) fields!: RegistrationFieldNode[];
}

@ObjectType('OtpRequestResult', { description: 'The same answer whether or not the address is registered.' })
export class OtpRequestResult {
  @Field(() => Boolean) sent!: boolean;
  @Field(() => LoginChannel) channel!: LoginChannel;
  @Field(() => DateTime) expiresAt!: Date;
}

@ObjectType('CustomerSession', { description: 'A signed-in customer: use `token` as `Authorization: Bearer`.' })
export class CustomerSession {
  @Field(() => String) token!: string;
  @Field(() => DateTime) expiresAt!: Date;
  @Field(() => CustomerNode) customer!: CustomerNode;
  @Field(() => Boolean, { nullable: true }) isNewCustomer?: boolean;
}

@ObjectType('CustomerRegistration')
export class CustomerRegistration {
  @Field(() => CustomerNode) member!: CustomerNode;
  @Field(() => String) token!: string;
  @Field(() => DateTime) expiresAt!: Date;
}

@ObjectType('TokenValidation')
export class TokenValidation {
  @Field(() => Boolean) valid!: boolean;
  @Field(() => DateTime) expiresAt!: Date;
  @Field(() => CustomerNode) customer!: CustomerNode;
}

@ObjectType('LogoutResult')
export class LogoutResult {
  @Field(() => Boolean) loggedOut!: boolean;
}

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

@ObjectType('MerchantSession')
export class MerchantSession {
  @Field(() => String) token!: string;
  @Field(() => DateTime) expiresAt!: Date;
  @Field(() => ID) companyId!: string;
}

@ObjectType('Viewer', { description: 'Who the request is made as.' })
export class Viewer {
  @Field(() => String, { description: 'anonymous, public, customer or merchant' }) kind!: string;
  @Field(() => ID, { nullable: true }) companyId?: string | null;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
}

// Inputs: flat in REST and MCP, one object in GraphQL.

@InputType()
export class OtpRequestInput {
  @Field(() => String, { nullable: true }) phone?: string;
  @Field(() => String, { nullable: true }) email?: string;
}

@InputType()
export class OtpVerifyInput {
  @Field(() => String, { nullable: true }) phone?: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String) code!: string;
}

@InputType()
export class RegisterCustomerInput {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) lastName?: string;
  @Field(() => String, { nullable: true }) phone?: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true }) source?: string;
  @Field(() => JSONObject, { nullable: true, description: 'Answers to the form fields beyond name, lastName, email and phone.' })
  attributes?: Record<string, unknown>;
}

@InputType()
export class OrganisationSignupInput {
  @Field(() => String) email!: string;
  @Field(() => String) organisationName!: string;
  @Field(() => String) industry!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2 country code.' }) country!: string;
}

@InputType()
export class OrganisationVerifyInput {
  @Field(() => ID) requestId!: string;
  @Field(() => String) code!: string;
}

@InputType()
export class CompanySettingsInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true }) timeZone?: string;
  @Field(() => String, { nullable: true }) currency?: string;
  @Field(() => LoginChannel, { nullable: true }) loginChannel?: LoginChannel;
  @Field(() => [RegistrationFieldInput], { nullable: true }) registrationFields?: RegistrationFieldInput[];
}
