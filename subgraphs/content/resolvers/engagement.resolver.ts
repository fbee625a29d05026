import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { Money, toMoney } from '../../kernel/money.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import type { Event, EventRegistration } from '../entities/engagement.ts';
import * as contact from '../services/contact.ts';
import * as events from '../services/events.ts';
import * as surveys from '../services/surveys.ts';
import {
  ContactInput,
  ContactInquiryNode,
  ContactInquiryPage,
  EventInput,
  EventNode,
  EventPage,
  EventRegistrationInput,
  EventRegistrationNode,
  EventRegistrationPage,
  InvitedSurveyNode,
  RegistrationAccessNode,
  SurveyInput,
  SurveyInvitationNode,
  SurveyNode,
  SurveyResponseInput,
  SurveyResponseNode,
  SurveyResultsNode,
} from './types.ts';

/** Events and their registrations. */
@Resolver(() => EventNode)
export class EventResolver {
  @Requires('optionalCustomer')
  @Query(() => EventPage, { description: 'Upcoming published events; with a customer token each says whether they are registered.' })
  async events(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return events.listEvents(ctx, args, true);
  }

  @Requires('optionalCustomer')
  @Query(() => EventNode, { description: 'A published event by slug (or id).' })
  async event(@Ctx() ctx: RequestContext, @Arg('slug', () => String) slug: string) {
    return events.getEvent(ctx, slug, 'slug', true);
  }

  @Requires('optionalCustomer')
  @Mutation(() => EventRegistrationNode, { description: 'Registers attendees: CONFIRMED for a free event, PENDING_PAYMENT for a paid one; 409 when sold out.' })
  async registerForEvent(@Ctx() ctx: RequestContext, @Arg('input', () => EventRegistrationInput) input: EventRegistrationInput) {
    return events.register(ctx, input);
  }

  @Requires('optionalCustomer')
  @Query(() => RegistrationAccessNode, { description: 'Whether a registration grants entry, and why not.' })
  async eventRegistrationAccess(@Ctx() ctx: RequestContext, @Arg('id', () => ID) id: string) {
    return events.access(ctx, id);
  }

  @Requires('merchant')
  @Query(() => EventPage, { description: 'All events, any status.' })
  async merchantEvents(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs, @Arg('status', () => String, { nullable: true }) status?: string) {
    return events.listEvents(ctx, { ...args, status }, false);
  }

  @Requires('merchant')
  @Mutation(() => EventNode, { description: 'Creates an event (a draft unless status says published).' })
  async createEvent(@Ctx() ctx: RequestContext, @Arg('input', () => EventInput) input: EventInput) {
    return events.createEvent(ctx, input);
  }

  @Requires('merchant')
  @Mutation(() => EventNode)
  async updateEvent(@Ctx() ctx: RequestContext, @Arg('eventId', () => ID) eventId: string, @Arg('input', () => EventInput) input: EventInput) {
    return events.updateEvent(ctx, eventId, input);
  }

  @Requires('merchant')
  @Query(() => EventRegistrationPage, { description: 'Registrations of an event.' })
  async eventRegistrations(@Ctx() ctx: RequestContext, @Arg('eventId', () => ID) eventId: string, @Args(() => ListArgs) args: ListArgs) {
    return events.listRegistrations(ctx, eventId, args);
  }

  @FieldResolver(() => Money, { description: 'Price per place; 0 for a free event.' })
  price(@Root() event: Event) {
    return toMoney(event.priceMinor, event.currency);
  }

  @FieldResolver(() => Boolean)
  free(@Root() event: Event) {
    return event.priceMinor === 0;
  }

  @FieldResolver(() => Int, { nullable: true, description: 'Places left; null for no limit.' })
  async placesLeft(@Ctx() ctx: RequestContext, @Root() event: Event) {
    if (event.capacity == null) return null;
    const taken = await ctx.loader('content.seatsTaken', (ids: readonly string[]) => events.seatsTaken(ctx, ids)).load(event.id);
    return Math.max(0, event.capacity - taken);
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'Whether the signed-in customer is registered (null without a customer token).' })
  async registered(@Ctx() ctx: RequestContext, @Root() event: Event) {
    return ctx.loader('content.registered', (ids: readonly string[]) => events.registeredFlags(ctx, ids)).load(event.id);
  }
}

@Resolver(() => EventRegistrationNode)
export class EventRegistrationResolver {
  @FieldResolver(() => Money, { description: 'Amount due for all places.' })
  amount(@Root() registration: EventRegistration) {
    return toMoney(registration.amountMinor, registration.currency);
  }
}

/** Surveys, invitations and responses; contact inquiries. */
@Resolver(() => SurveyNode)
export class SurveyResolver {
  @Requires('optionalCustomer')
  @Query(() => SurveyNode, { description: 'A published survey by slug.' })
  async survey(@Ctx() ctx: RequestContext, @Arg('slug', () => String) slug: string) {
    return surveys.getSurvey(ctx, slug, 'slug', true);
  }

  @Requires('anyone')
  @Query(() => InvitedSurveyNode, { description: 'The survey of a magic invitation token, and whom it is for.' })
  async invitedSurvey(@Ctx() ctx: RequestContext, @Arg('token', () => String) token: string) {
    const { invitation, survey } = await surveys.invitationByToken(ctx, token);
    return { survey, invitationId: invitation.id, customerId: invitation.customerId, email: invitation.email, answered: !!invitation.respondedAt };
  }

  @Requires('optionalCustomer')
  @Mutation(() => SurveyResponseNode, { description: 'Answers a published survey (by id or slug).' })
  async respondToSurvey(@Ctx() ctx: RequestContext, @Arg('id', () => String) id: string, @Arg('input', () => SurveyResponseInput) input: SurveyResponseInput) {
    return surveys.respond(ctx, await surveys.getSurvey(ctx, id, 'id', true), input);
  }

  @Requires('anyone')
  @Mutation(() => SurveyResponseNode, { description: 'Answers through a magic invitation link; one response per token.' })
  async respondToInvitation(@Ctx() ctx: RequestContext, @Arg('token', () => String) token: string, @Arg('input', () => SurveyResponseInput) input: SurveyResponseInput) {
    const { invitation, survey, ctx: scoped } = await surveys.invitationByToken(ctx, token);
    if (invitation.respondedAt) throw surveys.alreadyAnswered();
    return surveys.respond(scoped, survey, input, invitation);
  }

  @Requires('merchant')
  @Mutation(() => SurveyNode, { description: 'Creates a survey (a draft unless status says published).' })
  async createSurvey(@Ctx() ctx: RequestContext, @Arg('input', () => SurveyInput) input: SurveyInput) {
    return surveys.createSurvey(ctx, input);
  }

  @Requires('merchant')
  @Mutation(() => SurveyNode)
  async updateSurvey(@Ctx() ctx: RequestContext, @Arg('surveyId', () => ID) surveyId: string, @Arg('input', () => SurveyInput) input: SurveyInput) {
    return surveys.updateSurvey(ctx, surveyId, input);
  }

  @Requires('merchant')
  @Mutation(() => [SurveyInvitationNode], { description: 'One magic link per recipient (customer ids or emails); emails get theirs by message.' })
  async createSurveyInvitations(@Ctx() ctx: RequestContext, @Arg('surveyId', () => ID) surveyId: string, @Arg('recipients', () => [String]) recipients: string[]) {
    return surveys.createInvitations(ctx, surveyId, recipients);
  }

  @Requires('merchant')
  @Query(() => SurveyResultsNode, { description: 'Responses with per-question aggregates.' })
  async surveyResponses(@Ctx() ctx: RequestContext, @Arg('surveyId', () => ID) surveyId: string, @Args(() => ListArgs) args: ListArgs) {
    return surveys.responsesOf(ctx, surveyId, args);
  }

  @Requires('public')
  @Mutation(() => ContactInquiryNode, { description: 'Sends a message to the business; at most 5 per address per hour.' })
  async submitContactInquiry(@Ctx() ctx: RequestContext, @Arg('input', () => ContactInput) input: ContactInput) {
    return contact.submitInquiry(ctx, input);
  }

  @Requires('merchant')
  @Query(() => ContactInquiryPage, { description: 'Contact inquiries, newest first.' })
  async contactInquiries(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return contact.listInquiries(ctx, args);
  }
}
