import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { parse } from '../../kernel/schemas.ts';
import * as auth from '../services/customers.ts';
import { LoginChannelInfo, RegistrationForm } from './company.types.ts';
import { CustomerContact, CustomerId, NewRegistration, OtpRequest, OtpVerification } from './customer.inputs.ts';
import {
  CustomerNode,
  CustomerRegistration,
  CustomerSession,
  customerNode,
  DeletedCustomer,
  LogoutResult,
  OtpRequestInput,
  OtpRequestResult,
  OtpVerifyInput,
  RegisterCustomerInput,
  TokenValidation,
} from './customer.types.ts';

/** The storefront's member session: sign-in by one-time code, registration, token lifecycle. */
@Resolver()
export class CustomerResolver {
  @Requires('public', 'customers')
  @Query(() => LoginChannelInfo, { description: 'The sign-in channel configured for the company.' })
  async loginChannel(@Ctx() ctx: RequestContext) {
    return auth.loginChannel(ctx);
  }

  @Requires('public', 'customers')
  @Query(() => RegistrationForm, { description: "The company's registration form fields." })
  async registrationForm(@Ctx() ctx: RequestContext) {
    return auth.registrationForm(ctx);
  }

  @Requires('customer', 'customers')
  @Query(() => TokenValidation, { description: 'Checks the presented customer token.' })
  async validateCustomerToken(@Ctx() ctx: RequestContext) {
    const result = await auth.validateToken(ctx);
    return { ...result, customer: customerNode(result.customer) };
  }

  @Requires('customer', 'customers')
  @Query(() => CustomerNode, { description: 'The signed-in customer.' })
  async currentCustomer(@Ctx() ctx: RequestContext) {
    return customerNode(await auth.currentCustomer(ctx));
  }

  @Requires('public', 'customers')
  @Mutation(() => OtpRequestResult, { description: 'Sends a 6-digit sign-in code by email, SMS or WhatsApp.' })
  async requestCustomerOtp(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => OtpRequestInput, { description: 'Where to send the code: a phone number or an email address.' }) input: OtpRequestInput,
  ) {
    return auth.requestOtp(ctx, parse(OtpRequest, input));
  }

  @Requires('public', 'customers')
  @Mutation(() => CustomerSession, { description: 'Exchanges a sign-in code for a customer token; an unknown address becomes a customer.' })
  async verifyCustomerOtp(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => OtpVerifyInput, { description: 'The phone number or email the code was sent to, and the code.' }) input: OtpVerifyInput,
  ) {
    const result = await auth.verifyOtp(ctx, parse(OtpVerification, input));
    return { ...result, customer: customerNode(result.customer) };
  }

  @Requires('public', 'customers')
  @Mutation(() => CustomerRegistration, { description: 'Registers a member and signs them in.' })
  async registerCustomer(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => RegisterCustomerInput, { description: "The customer's details." }) input: RegisterCustomerInput,
  ) {
    const result = await auth.registerCustomer(ctx, parse(NewRegistration, input));
    return { ...result, member: customerNode(result.member) };
  }

  @Requires('customer', 'customers')
  @Mutation(() => CustomerSession, { description: 'Rotates the session: the presented token ends, a new one is returned.' })
  async refreshCustomerToken(@Ctx() ctx: RequestContext) {
    const result = await auth.refreshSession(ctx);
    return { ...result, customer: customerNode(result.customer) };
  }

  @Requires('merchant', 'customers')
  @Mutation(() => DeletedCustomer, {
    description: "Erases a customer's record (name, email, phone, answers) and ends their sessions; bookings and responses keep only the id.",
  })
  async deleteCustomer(@Ctx() ctx: RequestContext, @Arg('customerId', () => ID, { description: 'The customer to erase.' }) customerId: string) {
    return auth.deleteCustomer(ctx, parse(CustomerId, customerId, 'customerId'));
  }

  @Requires('merchant', 'customers')
  @Mutation(() => CustomerSession, { description: "Signs a customer in on the merchant's word and returns their token (the legacy member-token adapter)." })
  async issueCustomerToken(@Ctx() ctx: RequestContext, @Arg('customerId', () => ID, { description: 'The customer to sign in.' }) customerId: string) {
    const result = await auth.issueCustomerToken(ctx, parse(CustomerId, customerId, 'customerId'));
    return { ...result, customer: customerNode(result.customer) };
  }

  @Requires('merchant', 'customers')
  @Query(() => [CustomerNode], { description: "The company's customers with exactly this email or phone (at most 10; the legacy member-search adapter)." })
  async findCustomers(
    @Ctx() ctx: RequestContext,
    @Arg('email', () => String, { nullable: true, description: 'An email address, matched exactly (case-insensitively).' }) email?: string,
    @Arg('phone', () => String, { nullable: true, description: 'A phone number in international format, matched exactly.' }) phone?: string,
  ) {
    return (await auth.findCustomers(ctx, parse(CustomerContact, { email, phone }))).map(customerNode);
  }

  @Requires('customer', 'customers')
  @Mutation(() => LogoutResult, { description: 'Ends the session; the token is refused afterwards.' })
  async logoutCustomer(@Ctx() ctx: RequestContext) {
    return auth.logout(ctx);
  }
}
