import { CLOCK_OVERRIDE_SETTING, systemClock, TestClock, type Clock } from 'pg-boss';

/**
 * The one source of "now" for rules that depend on time (OTP expiry, cancellation windows,
 * schedules) and for the job queue's timers. Production runs on the system clock; a test injects a
 * `TestClock` and moves time with `tick()` / `setTime()` instead of sleeping. It is pg-boss's clock
 * interface, so the queue's timers and its SQL `job_now()` agree with `ctx.now()`.
 */
export { CLOCK_OVERRIDE_SETTING, systemClock, TestClock, type Clock };
