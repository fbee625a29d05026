/** The moves a booking's status may make, declared once; every service that changes it asserts the move. */
import { stateMachine } from '../../kernel/states.ts';
import type { BookingStatus } from '../entities/booking.ts';

/**
 * A booking is CONFIRMED when made. It is cancelled (within its policy) or, once it has started,
 * marked COMPLETED or NO_SHOW; those three are final. A reschedule keeps it CONFIRMED at a new
 * time, so CONFIRMED → CONFIRMED is a move of its own.
 */
export const bookingStates = stateMachine<BookingStatus>('booking', {
  CONFIRMED: ['CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW'],
  CANCELLED: [],
  COMPLETED: [],
  NO_SHOW: [],
});
