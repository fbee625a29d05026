import { registerEnumType } from 'type-graphql';
import { AppError } from './errors.ts';

/**
 * The states of one kind of record and the moves between them, declared once:
 *
 *     const bookingStates = stateMachine<BookingStatus>('booking', {
 *       CONFIRMED: ['CANCELLED', 'COMPLETED', 'NO_SHOW'],
 *       CANCELLED: [],
 *       …
 *     });
 *     bookingStates.assert(row.status, 'CANCELLED'); // or 409 INVALID_STATE_TRANSITION
 *
 * Every state is a key (a final state has no moves); a state may list itself when staying in it
 * is a change of its own (a rescheduled booking stays CONFIRMED).
 */
export interface StateMachine<S extends string> {
  /** What the states belong to, as a message names it ("booking", "event"). */
  readonly name: string;
  readonly states: readonly S[];
  /** The states reachable from `from` in one move. */
  allowed(from: S): readonly S[];
  can(from: S, to: S): boolean;
  /** Throws 409 INVALID_STATE_TRANSITION with `{ from, to, allowed }` unless `from → to` is a declared move. */
  assert(from: S, to: S): void;
}

export function stateMachine<S extends string>(name: string, moves: { readonly [K in S]: readonly S[] }): StateMachine<S> {
  const states = Object.keys(moves) as S[];
  for (const [from, targets] of Object.entries(moves) as [S, readonly S[]][]) {
    for (const to of targets) if (!states.includes(to)) throw new Error(`${name} states: ${from} → ${to} goes to an undeclared state`);
  }
  const allowed = (from: S): readonly S[] => (Object.hasOwn(moves, from) ? moves[from] : []);
  return {
    name,
    states,
    allowed,
    can: (from, to) => allowed(from).includes(to),
    assert(from, to) {
      const next = allowed(from);
      if (next.includes(to)) return;
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `The ${name} is ${from} and cannot become ${to} (from ${from}: ${next.length ? next.join(', ') : 'no further state'})`,
        {
          from,
          to,
          allowed: [...next],
        },
      );
    },
  };
}

/**
 * The GraphQL enum of a set of states, each value described. The values are the stored strings
 * themselves (CONFIRMED, draft), so what clients sent and read before stays valid.
 */
export function stateEnum<S extends string>(name: string, description: string, values: { readonly [K in S]: string }): { readonly [K in S]: K } {
  const enumObject = Object.fromEntries(Object.keys(values).map((v) => [v, v])) as { [K in S]: K };
  registerEnumType(enumObject, {
    name,
    description,
    valuesConfig: Object.fromEntries(Object.entries<string>(values).map(([v, text]) => [v, { description: text }])) as Record<S, { description: string }>,
  });
  return enumObject;
}
