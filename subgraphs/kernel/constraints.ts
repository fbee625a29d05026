import { AppError, type ErrorCode } from './errors.ts';

/** What a violated constraint means to a client: a catalogue code, the input field it concerns, a message. */
export interface ConstraintRule {
  code: ErrorCode;
  field?: string;
  message: string;
}

/** Constraint name → meaning; each subgraph declares its own table in its module (`constraints`). */
export type ConstraintTable = Record<string, ConstraintRule>;

const rules = new Map<string, ConstraintRule>();

export function declareConstraints(table: ConstraintTable | undefined): void {
  for (const [name, rule] of Object.entries(table ?? {})) rules.set(name, rule);
}

/** What a database error may carry: the constraint, its message, and the error it wraps (node's `cause`, MikroORM's `previous`). */
type DriverError = { constraint?: unknown; message?: unknown; cause?: unknown; previous?: unknown };

/** The name of the constraint a database error violated, wherever the driver put it. */
export function violatedConstraint(error: unknown): string | undefined {
  let e = error as DriverError | null | undefined;
  for (let i = 0; e && i < 4; i++, e = (e.cause ?? e.previous) as DriverError | null | undefined) {
    if (typeof e.constraint === 'string') return e.constraint;
  }
  const match = /constraint "([^"]+)"/.exec(String((error as DriverError | null | undefined)?.message ?? ''));
  return match?.[1];
}

/** The catalogue error for a declared constraint's violation, or null for anything else. */
export function constraintError(error: unknown): AppError | null {
  const name = violatedConstraint(error);
  const rule = name ? rules.get(name) : undefined;
  if (!rule) return null;
  return new AppError(rule.code, rule.message, rule.field ? { field: rule.field } : {});
}
