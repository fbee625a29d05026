/** GraphQL shape of the company's WhatsApp templates. */
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { TemplateCategory } from '../entities/template.ts';

export const TemplateCategoryEnum = stateEnum<TemplateCategory>('MessageTemplateCategory', 'Meta’s category of a WhatsApp template.', {
  marketing: 'Offers, news, invitations.',
  utility: 'About something the customer did: a booking, an order.',
  authentication: 'One-time codes.',
});

@ObjectType('MessageTemplate', { description: 'A WhatsApp template Meta approved for the company’s number: what can be sent outside the 24-hour window.' })
export class TemplateNode {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'Its name at Meta (lower case, digits, _).' }) name!: string;
  @Field(() => String, { description: 'Its language code (en, en_US …).' }) language!: string;
  @Field(() => TemplateCategoryEnum) category!: TemplateCategory;
  @Field(() => String, { description: 'Its body, with {{1}}, {{2}} … for the parameters.' }) body!: string;
  @Field(() => Int, { description: 'How many parameters a message of it fills in.' }) parameterCount!: number;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const TemplatePage = PageOf(TemplateNode, 'MessageTemplatePage');

@ObjectType('DeletedMessageTemplate', { description: 'A template that was deleted.' })
export class DeletedTemplateNode {
  @Field(() => ID) id!: string;
  @Field(() => Boolean) deleted!: boolean;
}

@ArgsType()
export class TemplateListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Only templates whose name contains this.' }) search?: string;
}

@InputType({ description: 'A template as Meta approved it.' })
export class CreateTemplateInput {
  @Field(() => String, { description: 'Its name at Meta: lower-case letters, digits and _.' }) name!: string;
  @Field(() => String, { description: 'Its language code (en, en_US …).' }) language!: string;
  @Field(() => TemplateCategoryEnum, { description: 'marketing, utility or authentication.' }) category!: TemplateCategory;
  @Field(() => String, { description: 'The body, with {{1}}, {{2}} … for the parameters.' }) body!: string;
}

@InputType({ description: 'What changes; what is left out stays.' })
export class UpdateTemplateInput {
  @Field(() => String, { nullable: true, description: 'Its name at Meta: lower-case letters, digits and _.' }) name?: string;
  @Field(() => String, { nullable: true, description: 'Its language code (en, en_US …).' }) language?: string;
  @Field(() => TemplateCategoryEnum, { nullable: true, description: 'marketing, utility or authentication.' }) category?: TemplateCategory;
  @Field(() => String, { nullable: true, description: 'The body, with {{1}}, {{2}} … for the parameters.' }) body?: string;
}
