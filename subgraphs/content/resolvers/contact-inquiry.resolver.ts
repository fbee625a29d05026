import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import * as inquiries from '../services/contact-inquiries.ts';
import { NewInquiry } from './contact-inquiry.inputs.ts';
import { ContactInput, ContactInquiryNode, ContactInquiryPage } from './contact-inquiry.types.ts';

/** Contact inquiries: sent from the storefront, read by the merchant. */
@Resolver(() => ContactInquiryNode)
export class ContactInquiryResolver {
  @Requires('public', 'content')
  @Mutation(() => ContactInquiryNode, { description: 'Sends a message to the business; at most 5 per address per hour.' })
  async submitContactInquiry(@Ctx() ctx: RequestContext, @Arg('input', () => ContactInput, { description: 'The inquiry.' }) input: ContactInput) {
    return inquiries.submitInquiry(ctx, parse(NewInquiry, input));
  }

  @Requires('merchant', 'content')
  @Query(() => ContactInquiryPage, { description: 'Contact inquiries, newest first.' })
  async contactInquiries(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return inquiries.listInquiries(ctx, args);
  }
}
