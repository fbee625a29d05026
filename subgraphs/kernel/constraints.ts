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

/** The name of the constraint a database error violated, wherever the driver put it. */
export function violatedConstraint(error: unknown): string | undefined {
  let e: any = error;
  for (let i = 0; e && i < 4; i++, e = e.cause ?? e.previous) {
    if (typeof e.constraint === 'string') return e.constraint;
  }
  const match = /constraint "([^"]+)"/.exec(String((error as any)?.message ?? ''));
  return match?.[1];
}

/** The catalogue error for a declared constraint's violation, or null for anything else. */
export function constraintError(error: unknown): AppError | null {
  const name = violatedConstraint(error);
  const rule = name ? rules.get(name) : undefined;
  if (!rule) return null;
  return new AppError(rule.code, rule.message, rule.field ? { field: rule.field } : {});
}
