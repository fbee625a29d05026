/** GraphQL shapes of a contact inquiry and the input that sends one. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('ContactInquiry')
export class ContactInquiryNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => String) message!: string;
  @Field(() => DateTime) createdAt!: Date;
}

export const ContactInquiryPage = PageOf(ContactInquiryNode, 'ContactInquiryPage');

@InputType()
export class ContactInput {
  @Field(() => String, { description: "The sender's name." }) name!: string;
  @Field(() => String, { nullable: true, description: "The sender's email address; the answer goes there." }) email?: string;
  @Field(() => String, { nullable: true, description: "The sender's phone number." }) phone?: string;
  @Field(() => String, { description: 'The message.' }) message!: string;
}
