/** Surveys with their invitations (magic links) and responses. */
import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

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
export const Survey = tenantEntity({
  name: 'Survey',
  schema: 'content',
  tableName: 'survey',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    title: p.text(),
    slug: p.text(),
    description: p.text().nullable(),
    status: p.text().$type<SurveyState>(),
    questions: p.json<Question[]>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'survey_company_id_slug_key', properties: ['companyId', 'slug'] }],
  checks: [{ name: 'survey_status_check', expression: "status in ('draft', 'published', 'closed')" }],
});
export type Survey = InstanceType<typeof Survey.class>;

/** One person's link to a survey; the token is shown once and stored as a hash. */
export const SurveyInvitation = tenantEntity({
  name: 'SurveyInvitation',
  schema: 'content',
  tableName: 'survey_invitation',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    surveyId: p.manyToOne(Survey).mapToPk().deferMode('deferred'),
    tokenHash: p.text().unique(),
    customerId: p.uuid().nullable(),
    email: p.text().nullable(),
    respondedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type SurveyInvitation = InstanceType<typeof SurveyInvitation.class>;

/** One set of answers to a survey, made through an invitation or not. */
export const SurveyResponse = tenantEntity({
  name: 'SurveyResponse',
  schema: 'content',
  tableName: 'survey_response',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    surveyId: p.manyToOne(Survey).mapToPk().deferMode('deferred'),
    invitationId: p.manyToOne(SurveyInvitation).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    customerId: p.uuid().nullable(),
    answers: p.json<Record<string, unknown>>(),
    metadata: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'survey_response_survey_idx', properties: ['surveyId', 'createdAt'] }],
  // An invitation is answered once.
  uniques: [{ name: 'survey_response_invitation_id_key', properties: ['invitationId'] }],
});
export type SurveyResponse = InstanceType<typeof SurveyResponse.class>;
