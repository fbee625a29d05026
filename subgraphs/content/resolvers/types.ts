import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime, Decimal, JSONObject } from '../../kernel/scalars.ts';

@ObjectType('Block', { description: 'A content block: a stable id, a version that grows with each edit, a type and its data.' })
export class BlockNode {
  @Field(() => ID) id!: string;
  @Field(() => Int) version!: number;
  @Field(() => String) type!: string;
  @Field(() => JSONObject) data!: Record<string, unknown>;
}

@ObjectType('ContentCategory')
export class ContentCategoryNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType('PostTypeField')
export class PostTypeFieldNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) postTypeId!: string;
  @Field(() => String) key!: string;
  @Field(() => String) label!: string;
  @Field(() => String, { description: 'text, number, boolean, date, image, url, select or richtext' }) fieldType!: string;
  @Field(() => Boolean) required!: boolean;
  @Field(() => [String], { nullable: true }) options?: string[] | null;
}

@ObjectType('PostType')
export class PostTypeNode {
  @Field(() => ID) id!: string;
  @Field(() => String) key!: string;
  @Field(() => String) label!: string;
}

@ObjectType('Post')
export class PostNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) postTypeId!: string;
  @Field(() => String) title!: string;
  @Field(() => String) slug!: string;
  @Field(() => String, { description: 'draft or published' }) status!: string;
  @Field(() => ID, { nullable: true }) categoryId?: string | null;
  @Field(() => JSONObject, { description: 'Values of the post type fields.' }) fields!: Record<string, unknown>;
  @Field(() => [BlockNode], { description: 'The blocks, in order.' }) blocks!: BlockNode[];
  @Field(() => String, { nullable: true }) excerpt?: string | null;
  @Field(() => DateTime, { nullable: true }) publishedAt?: Date | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType('Page')
export class PageNode {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => String) slug!: string;
  @Field(() => String, { description: 'draft or published' }) status!: string;
  @Field(() => [BlockNode]) blocks!: BlockNode[];
  @Field(() => String, { nullable: true }) seoTitle?: string | null;
  @Field(() => String, { nullable: true }) seoDescription?: string | null;
  @Field(() => DateTime, { nullable: true }) publishedAt?: Date | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType('MenuItem')
export class MenuItemNode {
  @Field(() => String) label!: string;
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => ID, { nullable: true }) pageId?: string | null;
  @Field(() => ID, { nullable: true }) postId?: string | null;
  @Field(() => String, { nullable: true, description: 'Slug of the linked page or post.' }) slug?: string | null;
  @Field(() => String, { nullable: true, description: 'Where the item leads: the URL, /<page slug> or /posts/<post slug>.' }) href?: string | null;
  @Field(() => [MenuItemNode]) children!: MenuItemNode[];
}

@ObjectType('Menu')
export class MenuNode {
  @Field(() => ID) id!: string;
  @Field(() => String) location!: string;
  @Field(() => [MenuItemNode]) items!: MenuItemNode[];
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType('Event')
export class EventNode {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => String) slug!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => DateTime) startsAt!: Date;
  @Field(() => DateTime) endsAt!: Date;
  @Field(() => String, { nullable: true }) venue?: string | null;
  @Field(() => Int, { nullable: true, description: 'Places in all; null for no limit.' }) capacity?: number | null;
  @Field(() => String, { description: 'draft, published or cancelled' }) status!: string;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType('EventRegistration')
export class EventRegistrationNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) eventId!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => Int) quantity!: number;
  @Field(() => String, { description: 'CONFIRMED, PENDING_PAYMENT or CANCELLED' }) status!: string;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType('RegistrationAccess', { description: 'Whether a registration grants entry, and why not.' })
export class RegistrationAccessNode {
  @Field(() => ID) registrationId!: string;
  @Field(() => Boolean) granted!: boolean;
  @Field(() => String, { nullable: true, description: 'PAYMENT_PENDING, REGISTRATION_CANCELLED, EVENT_CANCELLED, EVENT_ENDED or EVENT_UNAVAILABLE' }) reason?: string | null;
  @Field(() => String) status!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => EventNode, { nullable: true }) event?: EventNode | null;
}

@ObjectType('SurveyQuestion')
export class SurveyQuestionNode {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'text, number, rating, single_choice, multi_choice, email or date' }) type!: string;
  @Field(() => String) label!: string;
  @Field(() => Boolean) required!: boolean;
  @Field(() => [String], { nullable: true }) options?: string[] | null;
}

@ObjectType('Survey')
export class SurveyNode {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => String) slug!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { description: 'draft, published or closed' }) status!: string;
  @Field(() => [SurveyQuestionNode]) questions!: SurveyQuestionNode[];
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType('SurveyInvitation', { description: 'A magic link for one recipient; the token is shown only here.' })
export class SurveyInvitationNode {
  @Field(() => ID) invitationId!: string;
  @Field(() => ID) surveyId!: string;
  @Field(() => String) token!: string;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
}

@ObjectType('InvitedSurvey')
export class InvitedSurveyNode {
  @Field(() => SurveyNode) survey!: SurveyNode;
  @Field(() => ID) invitationId!: string;
  @Field(() => ID, { nullable: true, description: 'The customer the invitation is for.' }) customerId?: string | null;
  @Field(() => String, { nullable: true, description: 'The email the invitation is for.' }) email?: string | null;
  @Field(() => Boolean) answered!: boolean;
}

@ObjectType('SurveyResponse')
export class SurveyResponseNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) surveyId!: string;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => ID, { nullable: true }) invitationId?: string | null;
  @Field(() => JSONObject) answers!: Record<string, unknown>;
  @Field(() => JSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType('OptionCount')
export class OptionCountNode {
  @Field(() => String) option!: string;
  @Field(() => Int) count!: number;
}

@ObjectType('QuestionSummary')
export class QuestionSummaryNode {
  @Field(() => ID) questionId!: string;
  @Field(() => String) label!: string;
  @Field(() => String) type!: string;
  @Field(() => Int) answered!: number;
  @Field(() => [OptionCountNode], { nullable: true }) optionCounts?: OptionCountNode[] | null;
  @Field(() => Float, { nullable: true }) average?: number | null;
}

export const SurveyResponsePage = PageOf(SurveyResponseNode, 'SurveyResponsePage');

@ObjectType('SurveyResults')
export class SurveyResultsNode {
  @Field(() => SurveyNode) survey!: SurveyNode;
  @Field(() => [QuestionSummaryNode]) summary!: QuestionSummaryNode[];
  @Field(() => SurveyResponsePage) responses!: InstanceType<typeof SurveyResponsePage>;
}

@ObjectType('ContactInquiry')
export class ContactInquiryNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => String) message!: string;
  @Field(() => DateTime) createdAt!: Date;
}

export const PostPage = PageOf(PostNode, 'PostPage');
export const PageList = PageOf(PageNode, 'PageList');
export const ContentCategoryPage = PageOf(ContentCategoryNode, 'ContentCategoryPage');
export const EventPage = PageOf(EventNode, 'EventPage');
export const EventRegistrationPage = PageOf(EventRegistrationNode, 'EventRegistrationPage');
export const ContactInquiryPage = PageOf(ContactInquiryNode, 'ContactInquiryPage');

@InputType()
export class BlockInput {
  @Field(() => String, { description: 'paragraph, heading, image, list, quote, code, divider, embed, file, faq, callout, gallery, cta, accordion, product, button, video or form' })
  type!: string;
  @Field(() => JSONObject, { nullable: true, description: 'The block data, e.g. { "text": "Hello" } for a paragraph.' }) data?: Record<string, unknown>;
  @Field(() => JSONObject, { nullable: true, description: 'Same as data (the append form of the name).' }) props?: Record<string, unknown>;
}

@InputType()
export class PostInput {
  @Field(() => String, { nullable: true, description: 'Post type key (default "post").' }) type?: string;
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => String, { nullable: true, description: 'Made from the title when omitted.' }) slug?: string;
  @Field(() => [BlockInput], { nullable: true }) blocks?: BlockInput[];
  @Field(() => ID, { nullable: true }) categoryId?: string;
  @Field(() => JSONObject, { nullable: true, description: 'Values of the post type fields, by key.' }) fields?: Record<string, unknown>;
  @Field(() => String, { nullable: true }) excerpt?: string;
  @Field(() => String, { nullable: true, description: 'draft (default) or published' }) status?: string;
}

@InputType()
export class PageInput {
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => String, { nullable: true }) slug?: string;
  @Field(() => [BlockInput], { nullable: true }) blocks?: BlockInput[];
  @Field(() => String, { nullable: true, description: 'draft or published' }) status?: string;
  @Field(() => String, { nullable: true }) seoTitle?: string;
  @Field(() => String, { nullable: true }) seoDescription?: string;
}

@InputType()
export class MenuItemInput {
  @Field(() => String) label!: string;
  @Field(() => String, { nullable: true }) url?: string;
  @Field(() => ID, { nullable: true }) pageId?: string;
  @Field(() => ID, { nullable: true }) postId?: string;
  @Field(() => [MenuItemInput], { nullable: true }) children?: MenuItemInput[];
}

@InputType()
export class EventInput {
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => String, { nullable: true }) slug?: string;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => DateTime, { nullable: true }) startsAt?: Date;
  @Field(() => DateTime, { nullable: true }) endsAt?: Date;
  @Field(() => String, { nullable: true }) venue?: string;
  @Field(() => Int, { nullable: true, description: 'Places in all; null for no limit.' }) capacity?: number;
  @Field(() => Decimal, { nullable: true, description: 'Price per place in major units; "0" or omitted for a free event.' }) price?: string;
  @Field(() => String, { nullable: true, description: 'draft, published or cancelled' }) status?: string;
}

@InputType()
export class EventRegistrationInput {
  @Field(() => String, { description: 'Event id or slug.' }) eventId!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true }) phone?: string;
  @Field(() => Int, { nullable: true, description: 'Number of places (default 1).' }) quantity?: number;
}

@InputType()
export class QuestionInput {
  @Field(() => String, { nullable: true, description: 'Stable id used as the answer key (default q1, q2…).' }) id?: string;
  @Field(() => String, { description: 'text, number, rating, single_choice, multi_choice, email or date' }) type!: string;
  @Field(() => String) label!: string;
  @Field(() => Boolean, { nullable: true }) required?: boolean;
  @Field(() => [String], { nullable: true }) options?: string[];
}

@InputType()
export class SurveyInput {
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => String, { nullable: true }) slug?: string;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => String, { nullable: true, description: 'draft, published or closed' }) status?: string;
  @Field(() => [QuestionInput], { nullable: true }) questions?: QuestionInput[];
}

@InputType()
export class SurveyResponseInput {
  @Field(() => JSONObject, { description: 'Question id → answer.' }) answers!: Record<string, unknown>;
  @Field(() => ID, { nullable: true }) customerId?: string;
  @Field(() => JSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

@InputType()
export class ContactInput {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true }) phone?: string;
  @Field(() => String) message!: string;
}

