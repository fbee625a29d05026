/** GraphQL shapes of a company: its settings, registration form, storefront domains and tenant context. */
import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { DateTime } from '../../kernel/scalars.ts';
import type { RowOf } from '../../kernel/tables.ts';
import type { Company, StorefrontDomain } from '../entities/company.ts';

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
  @Field(() => String, { description: 'Machine name of the field, e.g. birthday.' }) key!: string;
  @Field(() => String, { description: 'Label shown to the customer.' }) label!: string;
  @Field(() => RegistrationFieldType, { description: 'Kind of value: text, number, date, boolean or select.' }) type!: RegistrationFieldType;
  @Field(() => Boolean, { nullable: true, description: 'Whether the customer must fill it in (default false).' }) required?: boolean;
  @Field(() => [String], { nullable: true, description: 'The choices of a select field.' }) options?: string[];
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

// Inputs: flat in REST and MCP, one object in GraphQL.

@InputType()
export class CompanySettingsInput {
  @Field(() => String, { nullable: true, description: "The company's display name." }) name?: string;
  @Field(() => String, { nullable: true, description: 'IANA time zone, e.g. Europe/Berlin; dates and opening hours are read in it.' }) timeZone?: string;
  @Field(() => String, { nullable: true, description: 'ISO 4217 currency code of prices, e.g. EUR.' }) currency?: string;
  @Field(() => LoginChannel, { nullable: true, description: 'How customers receive their sign-in code.' }) loginChannel?: LoginChannel;
  @Field(() => [RegistrationFieldInput], { nullable: true, description: 'Extra fields customers fill in when they register (replaces the list).' })
  registrationFields?: RegistrationFieldInput[];
}

@InputType()
export class AddStorefrontDomainInput {
  @Field(() => String, { description: 'Host name of the storefront, such as shop.example.com.' }) domain!: string;
}

// Entity rows → GraphQL shapes, in one place so every surface names things alike.

export const domainNode = (d: RowOf<'members.storefront_domain'> | StorefrontDomain): StorefrontDomainNode => ({
  id: d.id,
  domain: d.host,
  companyId: d.companyId,
  createdAt: d.createdAt,
});

export const tenantContext = (c: RowOf<'members.company'> | Company): TenantContext => ({
  companyId: c.id,
  name: c.name,
  slug: c.slug,
  timeZone: c.timeZone,
  currency: c.currency,
  loginChannel: c.loginChannel as TenantContext['loginChannel'],
});
