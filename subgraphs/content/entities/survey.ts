/** Surveys with their invitations (magic links) and responses. */
import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

export const QUESTION_TYPES = ['text', 'number', 'rating', 'single_choice', 'multi_choice', 'email', 'date'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export interface Question {
  id: string;
  type: QuestionType;
  label: string;
  required: boolean;
  options?: string[];
}

export const SURVEY_STATES = ['draft', 'published', 'closed'] as const;
export type SurveyState = (typeof SURVEY_STATES)[number];

/** A survey: its questions and status. */
export const Survey = defineEntity({
  name: 'Survey',
  schema: 'content',
  tableName: 'survey',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    title: p.string(),
    slug: p.string(),
    description: p.text().nullable(),
    status: p.string().$type<SurveyState>(),
    questions: p.json<Question[]>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Survey = InstanceType<typeof Survey.class>;

/** One person's link to a survey; the token is shown once and stored as a hash. */
export const SurveyInvitation = defineEntity({
  name: 'SurveyInvitation',
  schema: 'content',
  tableName: 'survey_invitation',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    surveyId: p.uuid(),
    tokenHash: p.string(),
    customerId: p.uuid().nullable(),
    email: p.string().nullable(),
    respondedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type SurveyInvitation = InstanceType<typeof SurveyInvitation.class>;

/** One set of answers to a survey, made through an invitation or not. */
export const SurveyResponse = defineEntity({
  name: 'SurveyResponse',
  schema: 'content',
  tableName: 'survey_response',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    surveyId: p.uuid(),
    invitationId: p.uuid().nullable(),
    customerId: p.uuid().nullable(),
    answers: p.json<Record<string, unknown>>(),
    metadata: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type SurveyResponse = InstanceType<typeof SurveyResponse.class>;
