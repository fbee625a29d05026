import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { Money, toMoney } from '../../kernel/money.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import type { RowOf } from '../../kernel/tables.ts';
import type { EventState } from '../entities/event.ts';
import * as events from '../services/events.ts';
import { EventKey, EventUpdate, NewEvent, NewRegistration, RegistrationId } from './event.inputs.ts';
import {
  EventInput,
  EventNode,
  EventPage,
  EventRegistrationInput,
  EventRegistrationNode,
  EventRegistrationPage,
  EventStatusEnum,
  RegistrationAccessNode,
} from './event.types.ts';

/** Events and their registrations. */
@Resolver(() => EventNode)
export class EventResolver {
  @Requires('optionalCustomer', 'events')
  @Query(() => EventPage, { description: 'Upcoming published events; with a customer token each says whether they are registered.' })
  async events(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return events.listEvents(ctx, args, true);
  }

  @Requires('optionalCustomer', 'events')
  @Query(() => EventNode, { description: 'A published event by slug (or id).' })
  async event(@Ctx() ctx: RequestContext, @Arg('slug', () => String, { description: "The event's slug." }) slug: string) {
    return events.getEvent(ctx, parse(EventKey, slug, 'slug'), true);
  }

  @Requires('optionalCustomer', 'events')
  @Mutation(() => EventRegistrationNode, { description: 'Registers attendees: CONFIRMED for a free event, PENDING_PAYMENT for a paid one; 409 when sold out.' })
  async registerForEvent(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => EventRegistrationInput, { description: 'Who registers.' }) input: EventRegistrationInput,
  ) {
    return events.register(ctx, parse(NewRegistration, input));
  }

  @Requires('optionalCustomer', 'events')
  @Query(() => RegistrationAccessNode, { description: 'Whether a registration grants entry, and why not.' })
  async eventRegistrationAccess(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: "The registration's id." }) id: string) {
    return events.access(ctx, parse(RegistrationId, id, 'id'));
  }

  @Requires('merchant', 'events')
  @Query(() => EventPage, { description: 'All events, any status.' })
  async merchantEvents(
    @Ctx() ctx: RequestContext,
    @Args(() => ListArgs) args: ListArgs,
    @Arg('status', () => EventStatusEnum, { nullable: true, description: 'Only events in this state.' }) status?: EventState,
  ) {
    return events.listEvents(ctx, { ...args, status }, false);
  }

  @Requires('merchant', 'events')
  @Mutation(() => EventNode, { description: 'Creates an event (a draft unless status says published).' })
  async createEvent(@Ctx() ctx: RequestContext, @Arg('input', () => EventInput, { description: 'The event to create.' }) input: EventInput) {
    return events.createEvent(ctx, parse(NewEvent, input));
  }

  @Requires('merchant', 'events')
  @Mutation(() => EventNode)
  async updateEvent(
    @Ctx() ctx: RequestContext,
    @Arg('eventId', () => ID, { description: "The event's id." }) eventId: string,
    @Arg('input', () => EventInput, { description: 'The fields to change; fields left out keep their value.' }) input: EventInput,
  ) {
    return events.updateEvent(ctx, parse(EventKey, eventId, 'eventId'), parse(EventUpdate, input));
  }

  @Requires('merchant', 'events')
  @Query(() => EventRegistrationPage, { description: 'Registrations of an event.' })
  async eventRegistrations(
    @Ctx() ctx: RequestContext,
    @Arg('eventId', () => ID, { description: "The event's id." }) eventId: string,
    @Args(() => ListArgs) args: ListArgs,
  ) {
    return events.listRegistrations(ctx, parse(EventKey, eventId, 'eventId'), args);
  }

  @FieldResolver(() => Money, { description: 'Price per place; 0 for a free event.' })
  price(@Root() event: RowOf<'content.event'>) {
    return toMoney(event.priceMinor, event.currency);
  }

  @FieldResolver(() => Boolean)
  free(@Root() event: RowOf<'content.event'>) {
    return event.priceMinor === 0;
  }

  @FieldResolver(() => Int, { nullable: true, description: 'Places left; null for no limit.' })
  async placesLeft(@Ctx() ctx: RequestContext, @Root() event: RowOf<'content.event'>) {
    return events.placesLeft(ctx, event);
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'Whether the signed-in customer is registered (null without a customer token).' })
  async registered(@Ctx() ctx: RequestContext, @Root() event: RowOf<'content.event'>) {
    return events.isRegistered(ctx, event.id);
  }
}

@Resolver(() => EventRegistrationNode)
export class EventRegistrationResolver {
  @FieldResolver(() => Money, { description: 'Amount due for all places.' })
  amount(@Root() registration: RowOf<'content.event_registration'>) {
    return toMoney(registration.amountMinor, registration.currency);
  }
}
