/** GraphQL shapes of a customer and their sign-in: codes, sessions, registration and token checks. */
import { Directive, Field, ID, InputType, ObjectType } from 'type-graphql';
import { DateTime, JSONObject } from '../../kernel/scalars.ts';
import type { RowOf } from '../../kernel/tables.ts';
import type { Customer } from '../entities/customer.ts';
import { LoginChannel } from './company.types.ts';

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

@ObjectType('DeletedCustomer', { description: 'A customer record that was erased: its sessions ended and other services were told.' })
export class DeletedCustomer {
  @Field(() => ID) id!: string;
  @Field(() => Boolean) deleted!: boolean;
}

// Inputs: flat in REST and MCP, one object in GraphQL.

@InputType()
export class OtpRequestInput {
  @Field(() => String, { nullable: true, description: 'Phone number in international format, e.g. +4915112345678 (give phone or email).' }) phone?: string;
  @Field(() => String, { nullable: true, description: 'Email address (give phone or email).' }) email?: string;
}

@InputType()
export class OtpVerifyInput {
  @Field(() => String, { nullable: true, description: 'The phone number the code was sent to.' }) phone?: string;
  @Field(() => String, { nullable: true, description: 'The email address the code was sent to.' }) email?: string;
  @Field(() => String, { description: 'The code received, as a string of digits.' }) code!: string;
}

@InputType()
export class RegisterCustomerInput {
  @Field(() => String, { description: 'First name (or full name).' }) name!: string;
  @Field(() => String, { nullable: true, description: 'Last name.' }) lastName?: string;
  @Field(() => String, { nullable: true, description: 'Phone number in international format.' }) phone?: string;
  @Field(() => String, { nullable: true, description: 'Email address.' }) email?: string;
  @Field(() => String, { nullable: true, description: 'Where the customer came from, e.g. storefront or instagram.' }) source?: string;
  @Field(() => JSONObject, { nullable: true, description: 'Answers to the form fields beyond name, lastName, email and phone.' })
  attributes?: Record<string, unknown>;
}

/** A customer row as the GraphQL Customer, so every surface names things alike. */
export function customerNode(c: RowOf<'members.customer'> | Customer): CustomerNode {
  return {
    id: c.id,
    companyId: c.companyId,
    name: c.name,
    lastName: c.lastName ?? null,
    email: c.email ?? null,
    phone: c.phone ?? null,
    source: c.source ?? null,
    attributes: c.attributes ?? null,
    emailVerified: !!c.emailVerifiedAt,
    phoneVerified: !!c.phoneVerifiedAt,
    createdAt: c.createdAt,
  };
}
