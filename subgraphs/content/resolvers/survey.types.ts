/** GraphQL shapes of a survey, its invitations, responses and results, and the inputs that make them. */
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime, JSONObject } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { SurveyState } from '../entities/survey.ts';

/** The state of a survey (moves: services/states.ts). */
export const SurveyStatusEnum = stateEnum<SurveyState>('SurveyStatus', 'Whether a survey takes responses.', {
  draft: 'Being prepared; not shown and takes no responses. The state of a new survey.',
  published: 'Open: shown and takes responses; invitations can be sent.',
  closed: 'No longer takes responses; invitation links still show it. Can be reopened.',
});

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
  @Field(() => SurveyStatusEnum) status!: SurveyState;
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
  @Field(() => String, { description: 'The question as shown.' }) label!: string;
  @Field(() => Boolean, { nullable: true, description: 'Whether an answer is required (default false).' }) required?: boolean;
  @Field(() => [String], { nullable: true, description: 'The choices of a choice question.' }) options?: string[];
}

@InputType()
export class SurveyInput {
  @Field(() => String, { nullable: true, description: "The survey's title. Required when creating." }) title?: string;
  @Field(() => String, { nullable: true, description: 'URL name of the survey (default: made from the title).' }) slug?: string;
  @Field(() => String, { nullable: true, description: 'Text shown above the questions.' }) description?: string;
  @Field(() => SurveyStatusEnum, { nullable: true, description: 'draft (the default for a new survey), published or closed' }) status?: SurveyState;
  @Field(() => [QuestionInput], { nullable: true, description: 'The questions, in order (replaces the list).' }) questions?: QuestionInput[];
}

@InputType()
export class SurveyResponseInput {
  @Field(() => JSONObject, { description: 'Question id → answer.' }) answers!: Record<string, unknown>;
  @Field(() => ID, { nullable: true, description: 'The customer who answers, if known.' }) customerId?: string;
  @Field(() => JSONObject, { nullable: true, description: 'Free-form data kept with the response (e.g. where it was given).' }) metadata?: Record<
    string,
    unknown
  >;
}
