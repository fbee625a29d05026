/** GraphQL shapes of a booking: the booking, its history and refund, and the inputs that make and change it. */
import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money.ts';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { BookingStatus } from '../entities/booking.ts';

/** Booking states (moves: services/states.ts). */
export const BookingStatusEnum = stateEnum<BookingStatus>('BookingStatus', 'Where a booking stands.', {
  CONFIRMED: 'Booked: the time is held (a reschedule keeps the booking CONFIRMED at its new time).',
  CANCELLED: 'Cancelled by the customer or the business; the time is free again. Final.',
  COMPLETED: 'The appointment took place (recorded by the business once it started). Final.',
  NO_SHOW: 'The customer did not come (recorded by the business once it started). Final.',
});

/** The states `updateBookingStatus` records: how a started booking went. */
export type BookingOutcome = Extract<BookingStatus, 'COMPLETED' | 'NO_SHOW'>;
export const BookingOutcomeEnum = stateEnum<BookingOutcome>('BookingOutcome', 'How a started booking went (a cancellation is its own operation).', {
  COMPLETED: 'The appointment took place.',
  NO_SHOW: 'The customer did not come.',
});

@ObjectType('Refund')
export class RefundNode {
  @Field(() => Boolean) eligible!: boolean;
  @Field(() => Int) percent!: number;
  @Field(() => Money) amount!: Money;
}

@ObjectType('BookingEvent', { description: 'One step of a booking history.' })
export class BookingEventNode {
  @Field(() => String) type!: string;
  @Field(() => DateTime, { nullable: true }) fromStart?: Date | null;
  @Field(() => DateTime, { nullable: true }) toStart?: Date | null;
  @Field(() => String, { nullable: true }) note?: string | null;
  @Field(() => String) actor!: string;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType('Booking')
@Directive('@key(fields: "id")')
export class BookingNode {
  @Field(() => ID) id!: string;
  @Field(() => BookingStatusEnum) status!: BookingStatus;
  @Field(() => ID) serviceId!: string;
  @Field(() => ID, { nullable: true }) staffId?: string | null;
  @Field(() => ID, { nullable: true }) resourceId?: string | null;
  @Field(() => String) customerName!: string;
  @Field(() => String, { nullable: true }) customerEmail?: string | null;
  @Field(() => String, { nullable: true }) customerPhone?: string | null;
  @Field(() => Int) participants!: number;
  @Field(() => DateTime) startsAt!: Date;
  @Field(() => DateTime) endsAt!: Date;
  @Field(() => String, { nullable: true, description: 'The promotion code it was booked with (upper-case), if any.' }) promotionCode?: string | null;
  @Field(() => String, { nullable: true }) cancellationReason?: string | null;
  @Field(() => DateTime, { nullable: true }) cancelledAt?: Date | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const BookingPage = PageOf(BookingNode, 'BookingPage');

@InputType()
export class BookingCustomerInput {
  @Field(() => String, { description: "The customer's full name." }) name!: string;
  @Field(() => String, { nullable: true, description: 'Phone number in international format, e.g. +4915112345678.' }) phone?: string;
  @Field(() => String, { nullable: true, description: 'Email address; the confirmation is sent there.' }) email?: string;
}

@InputType()
export class CreateBookingInput {
  @Field(() => ID, { description: 'The service to book (from list_services).' }) serviceId!: string;
  @Field(() => DateTime, { description: 'Start of an available slot.' }) slotTime!: Date;
  @Field(() => Int, { nullable: true, description: 'Places booked, at least 1 and at most the capacity (default 1).' }) participants?: number;
  @Field(() => BookingCustomerInput, { description: 'Who the booking is for.' }) customer!: BookingCustomerInput;
  @Field(() => ID, { nullable: true, description: 'A staff member who performs the service (default: one who is free).' }) staffId?: string;
  @Field(() => ID, { nullable: true, description: 'A resource the service uses (default: one that is free).' }) resourceId?: string;
  @Field(() => String, {
    nullable: true,
    description: 'A promotion code enabled for bookings (any case); one that does not apply is 400 PROMOTION_INVALID with details.errorCode.',
  })
  promotionCode?: string;
}

@InputType()
export class GuestBookingInput {
  @Field(() => ID, { description: 'The service to book.' }) serviceId!: string;
  @Field(() => DateTime, { description: 'Start of the chosen slot (ISO-8601 with offset).' }) occurrenceStart!: Date;
  @Field(() => DateTime, { description: 'End of the chosen slot (ISO-8601 with offset).' }) occurrenceEnd!: Date;
  @Field(() => String, { description: "The guest's full name." }) customerName!: string;
  @Field(() => String, { description: "The guest's phone number in international format." }) customerPhone!: string;
  @Field(() => String, { nullable: true, description: "The guest's email address; the confirmation is sent there." }) customerEmail?: string;
  @Field(() => ID, { nullable: true, description: 'A staff member who performs the service (default: one who is free).' }) staffId?: string;
  @Field(() => ID, { nullable: true, description: 'A resource the service uses (default: one that is free).' }) resourceId?: string;
  @Field(() => String, {
    nullable: true,
    description: 'A promotion code enabled for bookings (any case); one that does not apply is 400 PROMOTION_INVALID with details.errorCode.',
  })
  promotionCode?: string;
}

@InputType()
export class CancelInput {
  @Field(() => String, { nullable: true, description: "Why it is cancelled (kept in the booking's history)." }) reason?: string;
}

@InputType()
export class RescheduleInput {
  @Field(() => DateTime, { description: 'New start (ISO-8601 with offset).' }) occurrenceStart!: Date;
  @Field(() => DateTime, { description: 'New end (ISO-8601 with offset).' }) occurrenceEnd!: Date;
  @Field(() => ID, { nullable: true, description: 'Another staff member for the new time.' }) staffId?: string;
  @Field(() => ID, { nullable: true, description: 'Another resource for the new time.' }) resourceId?: string;
}
