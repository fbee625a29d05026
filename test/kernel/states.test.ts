import { describe, expect, it } from 'vitest';
import { AppError, badInput, ERROR_REASONS, ERROR_STATUS, inCallerWords, reasonError } from '../../subgraphs/kernel/errors.ts';
import { stateMachine } from '../../subgraphs/kernel/states.ts';

type Light = 'RED' | 'GREEN' | 'OFF';

describe('state machine', () => {
  const lights = stateMachine<Light>('light', { RED: ['GREEN', 'OFF'], GREEN: ['RED'], OFF: [] });

  it('allows the declared moves only', () => {
    expect(lights.states).toEqual(['RED', 'GREEN', 'OFF']);
    expect(lights.allowed('RED')).toEqual(['GREEN', 'OFF']);
    expect(lights.can('GREEN', 'RED')).toBe(true);
    expect(lights.can('GREEN', 'OFF')).toBe(false);
    expect(() => lights.assert('RED', 'GREEN')).not.toThrow();
  });

  it('refuses any other move with 409 INVALID_STATE_TRANSITION and { from, to, allowed }', () => {
    const error = (() => {
      try {
        lights.assert('GREEN', 'OFF');
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error!.extensions).toEqual({ code: 'INVALID_STATE_TRANSITION', from: 'GREEN', to: 'OFF', allowed: ['RED'] });
    expect(error!.message).toMatch(/light is GREEN and cannot become OFF/);
    expect(ERROR_STATUS.INVALID_STATE_TRANSITION).toBe(409);
    // A final state allows nothing, itself included.
    expect(() => lights.assert('OFF', 'OFF')).toThrow(expect.objectContaining({ extensions: expect.objectContaining({ allowed: [] }) }));
  });

  it('refuses a declaration that moves to an undeclared state', () => {
    expect(() => stateMachine('broken', { A: ['B'] } as any)).toThrow(/undeclared/);
  });
});

describe('error catalogue', () => {
  it('takes a reason’s code from the catalogue', () => {
    const error = reasonError('SOLD_OUT', 'This event is sold out', { placesLeft: 0 });
    expect(error.extensions).toEqual({ code: 'CONFLICT', reason: 'SOLD_OUT', placesLeft: 0 });
    for (const [reason, { code }] of Object.entries(ERROR_REASONS)) expect(ERROR_STATUS, reason).toHaveProperty(code);
  });

  it('puts a service’s field names into the caller’s words', async () => {
    const words = { start: 'occurrenceStart', customer: 'guest', customerEmail: 'customer.email' };
    const fail = (error: Error) => inCallerWords(Promise.reject(error), words).catch((e) => e);
    const start = await fail(badInput('start', 'is not an available time'));
    expect([start.message, start.extensions]).toEqual(['occurrenceStart: is not an available time', { code: 'BAD_USER_INPUT', field: 'occurrenceStart' }]);
    expect((await fail(badInput('customerEmail', 'must be a valid email address'))).extensions.field).toBe('customer.email');
    // Paths under a renamed field follow it; others are left alone.
    expect((await fail(badInput('customer.phone', 'is required'))).message).toBe('guest.phone: is required');
    expect((await fail(badInput('participants', 'must be at least 1'))).extensions.field).toBe('participants');
    const other = new Error('boom');
    expect(await fail(other)).toBe(other);
    expect(await inCallerWords(async () => 42, words)).toBe(42);
  });
});
