import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money.ts';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime, Decimal } from '../../kernel/scalars.ts';

@ObjectType('CancellationPolicy', { description: 'Until how many hours before the start a booking may be cancelled or rescheduled, and the refund then.' })
export class CancellationPolicyNode {
  @Field(() => Int) hoursBefore!: number;
  @Field(() => Int) refundPercent!: number;
  @Field(() => String, { nullable: true }) description?: string | null;
}

@ObjectType('ServiceCategory')
export class ServiceCategoryNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType('StaffMember', { description: 'A person who performs services. Contact details are shown to merchants only.' })
export class StaffMemberNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
}

@ObjectType('Resource', { description: 'A room or piece of equipment a service uses.' })
export class ResourceNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) type!: string;
}

@ObjectType('Service', { description: 'A bookable service.' })
export class ServiceNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true, description: 'How to prepare for the appointment.' }) prepNotes?: string | null;
  @Field(() => Int) durationMinutes!: number;
  @Field(() => Money, { description: 'Price per participant.' }) price!: Money;
  @Field(() => Int, { description: 'Places per occurrence; more than 1 for group services.' }) capacity!: number;
  @Field(() => ID, { nullable: true }) categoryId?: string | null;
  @Field(() => Boolean) requiresStaff!: boolean;
  @Field(() => Boolean) requiresResource!: boolean;
  @Field(() => Int) bufferBeforeMinutes!: number;
  @Field(() => Int) bufferAfterMinutes!: number;
  @Field(() => Int) minimumNoticeMinutes!: number;
  @Field(() => Int) bookingHorizonDays!: number;
  @Field(() => CancellationPolicyNode) cancellationPolicy!: CancellationPolicyNode;
  @Field(() => Boolean) active!: boolean;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType('Slot', { description: 'A bookable time, with the staff and resources free for it.' })
export class SlotNode {
  @Field(() => DateTime) start!: Date;
  @Field(() => DateTime) end!: Date;
  @Field(() => [StaffMemberNode]) staff!: StaffMemberNode[];
  @Field(() => [ResourceNode]) resources!: ResourceNode[];
  @Field(() => Int) capacity!: number;
  @Field(() => Int) remainingCapacity!: number;
}

@ObjectType('SlotList')
export class SlotList {
  @Field(() => ID) serviceId!: string;
  @Field(() => String, { description: 'The day, in the company time zone.' }) date!: string;
  @Field(() => String) timeZone!: string;
  @Field(() => [SlotNode]) items!: SlotNode[];
}

@ObjectType('Availability', { description: 'Working hours for a weekday (0 = Sunday) or one date; no times means a day off.' })
export class AvailabilityNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) ownerId!: string;
  @Field(() => Int, { nullable: true }) dayOfWeek?: number | null;
  @Field(() => String, { nullable: true }) date?: string | null;
  @Field(() => String, { nullable: true }) startTime?: string | null;
  @Field(() => String, { nullable: true }) endTime?: string | null;
  @Field(() => Boolean) available!: boolean;
}

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

/** members' Customer, referenced by a booking and extended here with the customer's bookings. */
@ObjectType('Customer')
@Directive('@key(fields: "id")')
export class CustomerRef {
  @Field(() => ID) id!: string;
}

@ObjectType('Booking')
@Directive('@key(fields: "id")')
export class BookingNode {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'CONFIRMED, CANCELLED, COMPLETED or NO_SHOW' }) status!: string;
  @Field(() => ID) serviceId!: string;
  @Field(() => ID, { nullable: true }) staffId?: string | null;
  @Field(() => ID, { nullable: true }) resourceId?: string | null;
  @Field(() => String) customerName!: string;
  @Field(() => String, { nullable: true }) customerEmail?: string | null;
  @Field(() => String, { nullable: true }) customerPhone?: string | null;
  @Field(() => Int) participants!: number;
  @Field(() => DateTime) startsAt!: Date;
  @Field(() => DateTime) endsAt!: Date;
  @Field(() => String, { nullable: true }) cancellationReason?: string | null;
  @Field(() => DateTime, { nullable: true }) cancelledAt?: Date | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const ServicePage = PageOf(ServiceNode, 'ServicePage');
export const StaffMemberPage = PageOf(StaffMemberNode, 'StaffMemberPage');
export const ResourcePage = PageOf(ResourceNode, 'ResourcePage');
export const BookingPage = PageOf(BookingNode, 'BookingPage');

@InputType()
export class CancellationPolicyInput {
  @Field(() => Int, { description: 'Cancelling or rescheduling is allowed until this many hours before the start.' }) hoursBefore!: number;
  @Field(() => Int, { nullable: true, description: 'Refund in percent when cancelled in time (default 100).' }) refundPercent?: number;
  @Field(() => String, { nullable: true, description: 'The policy in words, shown to customers.' }) description?: string;
}

@InputType()
export class ServiceInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => Int, { nullable: true }) durationMinutes?: number;
  @Field(() => Decimal, { nullable: true, description: 'Price per participant in major units, e.g. "49.00".' }) price?: string;
  @Field(() => Int, { nullable: true, description: 'Places per occurrence (1 for one-to-one).' }) capacity?: number;
  @Field(() => ID, { nullable: true }) categoryId?: string;
  @Field(() => CancellationPolicyInput, { nullable: true }) cancellationPolicy?: CancellationPolicyInput;
  @Field(() => Boolean, { nullable: true }) requiresStaff?: boolean;
  @Field(() => Boolean, { nullable: true }) requiresResource?: boolean;
  @Field(() => [ID], { nullable: true, description: 'Staff members who perform it (replaces the list).' }) staffIds?: string[];
  @Field(() => [ID], { nullable: true, description: 'Resources it can use (replaces the list).' }) resourceIds?: string[];
  @Field(() => Int, { nullable: true }) bufferBeforeMinutes?: number;
  @Field(() => Int, { nullable: true }) bufferAfterMinutes?: number;
  @Field(() => Int, { nullable: true, description: 'How long before the start a booking must be made (default 60).' }) minimumNoticeMinutes?: number;
  @Field(() => Int, { nullable: true, description: 'How many days ahead bookings open (default 60).' }) bookingHorizonDays?: number;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => String, { nullable: true }) prepNotes?: string;
  @Field(() => Boolean, { nullable: true }) active?: boolean;
}

@InputType()
export class AvailabilityInput {
  @Field(() => Int, { nullable: true, description: '0 = Sunday … 6 = Saturday; weekly hours.' }) dayOfWeek?: number;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: a one-off change replacing that day’s weekly hours.' }) date?: string;
  @Field(() => String, { nullable: true, description: 'HH:MM; omit start and end for a day off.' }) startTime?: string;
  @Field(() => String, { nullable: true, description: 'HH:MM (24:00 for midnight).' }) endTime?: string;
}

@InputType()
export class BookingCustomerInput {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) phone?: string;
  @Field(() => String, { nullable: true }) email?: string;
}

@InputType()
export class CreateBookingInput {
  @Field(() => ID) serviceId!: string;
  @Field(() => DateTime, { description: 'Start of an available slot.' }) slotTime!: Date;
  @Field(() => Int, { nullable: true, description: 'Places booked (default 1, at most the capacity).' }) participants?: number;
  @Field(() => BookingCustomerInput) customer!: BookingCustomerInput;
  @Field(() => ID, { nullable: true }) staffId?: string;
  @Field(() => ID, { nullable: true }) resourceId?: string;
}

@InputType()
export class GuestBookingInput {
  @Field(() => ID) serviceId!: string;
  @Field(() => DateTime) occurrenceStart!: Date;
  @Field(() => DateTime) occurrenceEnd!: Date;
  @Field(() => String) customerName!: string;
  @Field(() => String) customerPhone!: string;
  @Field(() => String, { nullable: true }) customerEmail?: string;
  @Field(() => ID, { nullable: true }) staffId?: string;
  @Field(() => ID, { nullable: true }) resourceId?: string;
}

@InputType()
export class CancelInput {
  @Field(() => String, { nullable: true }) reason?: string;
}

@InputType()
export class RescheduleInput {
  @Field(() => DateTime) occurrenceStart!: Date;
  @Field(() => DateTime) occurrenceEnd!: Date;
  @Field(() => ID, { nullable: true }) staffId?: string;
  @Field(() => ID, { nullable: true }) resourceId?: string;
}
