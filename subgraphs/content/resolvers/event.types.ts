/** GraphQL shapes of an event, its registrations and their access, and the inputs that make them. */
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime, Decimal } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { EventState, RegistrationState } from '../entities/event.ts';

/** The state of an event (moves: services/states.ts). */
export const EventStatusEnum = stateEnum<EventState>('EventStatus', 'Where an event stands.', {
  draft: 'Being prepared; not shown to customers. The state of a new event.',
  published: 'Shown on the storefront and open for registration until it ends.',
  cancelled: 'Called off: still shown, so registrants can see it, but takes no registrations. Final.',
});

/** The state of a registration (moves: services/states.ts). */
export const RegistrationStatusEnum = stateEnum<RegistrationState>('RegistrationStatus', 'Where a registration for an event stands.', {
  CONFIRMED: 'The places are held and grant entry (a free event confirms at once).',
  PENDING_PAYMENT: 'A paid event’s places are held until payment confirms them.',
  CANCELLED: 'The registration was cancelled; it grants nothing. Final.',
});

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
  @Field(() => EventStatusEnum) status!: EventState;
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
  @Field(() => RegistrationStatusEnum) status!: RegistrationState;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType('RegistrationAccess', { description: 'Whether a registration grants entry, and why not.' })
export class RegistrationAccessNode {
  @Field(() => ID) registrationId!: string;
  @Field(() => Boolean) granted!: boolean;
  @Field(() => String, { nullable: true, description: 'PAYMENT_PENDING, REGISTRATION_CANCELLED, EVENT_CANCELLED, EVENT_ENDED or EVENT_UNAVAILABLE' }) reason?:
    string | null;
  @Field(() => RegistrationStatusEnum) status!: RegistrationState;
  @Field(() => Int) quantity!: number;
  @Field(() => EventNode, { nullable: true }) event?: EventNode | null;
}

export const EventPage = PageOf(EventNode, 'EventPage');

export const EventRegistrationPage = PageOf(EventRegistrationNode, 'EventRegistrationPage');

@InputType()
export class EventInput {
  @Field(() => String, { nullable: true, description: "The event's title. Required when creating." }) title?: string;
  @Field(() => String, { nullable: true, description: 'URL name of the event (default: made from the title).' }) slug?: string;
  @Field(() => String, { nullable: true, description: 'What the event is.' }) description?: string;
  @Field(() => DateTime, { nullable: true, description: 'Start (ISO-8601 with offset). Required when creating.' }) startsAt?: Date;
  @Field(() => DateTime, { nullable: true, description: 'End (ISO-8601 with offset), after the start.' }) endsAt?: Date;
  @Field(() => String, { nullable: true, description: 'Where it takes place.' }) venue?: string;
  @Field(() => Int, { nullable: true, description: 'Places in all, between 1 and 100000; leave out (or null on update) for no limit.' }) capacity?: number;
  @Field(() => Decimal, { nullable: true, description: 'Price per place in major units, at least 0; "0" or omitted for a free event.' }) price?: string;
  @Field(() => EventStatusEnum, { nullable: true, description: 'draft (the default for a new event), published or cancelled' }) status?: EventState;
}

@InputType()
export class EventRegistrationInput {
  @Field(() => String, { description: 'Event id or slug.' }) eventId!: string;
  @Field(() => String, { description: "The attendee's full name." }) name!: string;
  @Field(() => String, { nullable: true, description: "The attendee's email address." }) email?: string;
  @Field(() => String, { nullable: true, description: "The attendee's phone number." }) phone?: string;
  @Field(() => Int, { nullable: true, description: 'Number of places (default 1).' }) quantity?: number;
}
