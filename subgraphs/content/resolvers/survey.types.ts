/** GraphQL shapes of a survey, its invitations, responses and results, and the inputs that make them. */
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime, JSONObject } from '../../kernel/scalars.ts';

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
