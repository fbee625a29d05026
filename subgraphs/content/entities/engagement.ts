import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

export const EVENT_STATES = ['draft', 'published', 'cancelled'] as const;
export type EventState = (typeof EVENT_STATES)[number];

export const Event = defineEntity({
  name: 'Event',
  schema: 'content',
  tableName: 'event',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    title: p.string(),
    slug: p.string(),
    description: p.text().nullable(),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    venue: p.string().nullable(),
    /** Seats or tickets in all; null for no limit. */
    capacity: p.integer().nullable(),
    priceMinor: p.bigint('number'),
    currency: p.string(),
    status: p.string().$type<EventState>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Event = InstanceType<typeof Event.class>;

export type RegistrationState = 'CONFIRMED' | 'PENDING_PAYMENT' | 'CANCELLED';

export const EventRegistration = defineEntity({
  name: 'EventRegistration',
  schema: 'content',
  tableName: 'event_registration',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    eventId: p.uuid(),
    customerId: p.uuid().nullable(),
    name: p.string(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    quantity: p.integer(),
    status: p.string().$type<RegistrationState>(),
    amountMinor: p.bigint('number'),
    currency: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type EventRegistration = InstanceType<typeof EventRegistration.class>;

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

export const ContactInquiry = defineEntity({
  name: 'ContactInquiry',
  schema: 'content',
  tableName: 'contact_inquiry',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    message: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type ContactInquiry = InstanceType<typeof ContactInquiry.class>;
