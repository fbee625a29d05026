/** GraphQL shapes of a bookable service: the service, its cancellation policy and the input that defines it. */
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Money, toMoney } from '../../kernel/money.ts';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime, Decimal } from '../../kernel/scalars.ts';
import type { Service } from '../entities/service.ts';

@ObjectType('CancellationPolicy', { description: 'Until how many hours before the start a booking may be cancelled or rescheduled, and the refund then.' })
export class CancellationPolicyNode {
  @Field(() => Int) hoursBefore!: number;
  @Field(() => Int) refundPercent!: number;
  @Field(() => String, { nullable: true }) description?: string | null;
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

export const ServicePage = PageOf(ServiceNode, 'ServicePage');

@InputType()
export class CancellationPolicyInput {
  @Field(() => Int, { description: 'Cancelling or rescheduling is allowed until this many hours before the start. Between 0 and 2160.' }) hoursBefore!: number;
  @Field(() => Int, { nullable: true, description: 'Refund in percent when cancelled in time, between 0 and 100 (default 100).' }) refundPercent?: number;
  @Field(() => String, { nullable: true, description: 'The policy in words, shown to customers.' }) description?: string;
}

@InputType()
export class ServiceInput {
  @Field(() => String, { nullable: true, description: 'The service\'s name, e.g. "Haircut". Required when creating.' }) name?: string;
  @Field(() => Int, { nullable: true, description: 'Length of one appointment in minutes. Between 5 and 1440. Required when creating.' })
  durationMinutes?: number;
  @Field(() => Decimal, { nullable: true, description: 'Price per participant in major units, e.g. "49.00"; at least 0.' }) price?: string;
  @Field(() => Int, { nullable: true, description: 'Places per occurrence (1 for one-to-one), between 1 and 1000.' }) capacity?: number;
  @Field(() => ID, { nullable: true, description: 'The service category it belongs to (from create_service_category).' }) categoryId?: string;
  @Field(() => CancellationPolicyInput, { nullable: true, description: 'Until when customers may cancel or reschedule, and the refund when they do.' })
  cancellationPolicy?: CancellationPolicyInput;
  @Field(() => Boolean, { nullable: true, description: 'Whether a staff member must be free for a booking.' }) requiresStaff?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Whether a resource (room, equipment) must be free for a booking.' }) requiresResource?: boolean;
  @Field(() => [ID], { nullable: true, description: 'Staff members who perform it (replaces the list).' }) staffIds?: string[];
  @Field(() => [ID], { nullable: true, description: 'Resources it can use (replaces the list).' }) resourceIds?: string[];
  @Field(() => Int, { nullable: true, description: 'Minutes kept free before each appointment. Between 0 and 480.' }) bufferBeforeMinutes?: number;
  @Field(() => Int, { nullable: true, description: 'Minutes kept free after each appointment. Between 0 and 480.' }) bufferAfterMinutes?: number;
  @Field(() => Int, { nullable: true, description: 'Minutes before the start by which a booking must be made, between 0 and 129600 (default 60).' })
  minimumNoticeMinutes?: number;
  @Field(() => Int, { nullable: true, description: 'How many days ahead bookings open, between 1 and 730 (default 60).' }) bookingHorizonDays?: number;
  @Field(() => String, { nullable: true, description: 'What the service is, shown to customers.' }) description?: string;
  @Field(() => String, { nullable: true, description: 'How to prepare for the appointment, shown to customers.' }) prepNotes?: string;
  @Field(() => Boolean, { nullable: true, description: 'Whether customers can book it (default true).' }) active?: boolean;
}

export const serviceNode = (s: Service): ServiceNode => ({
  id: s.id,
  name: s.name,
  description: s.description ?? null,
  prepNotes: s.prepNotes ?? null,
  durationMinutes: s.durationMinutes,
  price: toMoney(s.priceMinor, s.currency),
  capacity: s.capacity,
  categoryId: s.categoryId ?? null,
  requiresStaff: s.requiresStaff,
  requiresResource: s.requiresResource,
  bufferBeforeMinutes: s.bufferBeforeMinutes,
  bufferAfterMinutes: s.bufferAfterMinutes,
  minimumNoticeMinutes: s.minimumNoticeMinutes,
  bookingHorizonDays: s.bookingHorizonDays,
  cancellationPolicy: s.cancellationPolicy,
  active: s.active,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});
