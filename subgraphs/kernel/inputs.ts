/**
 * Writing a checked create-or-update input onto its entity. The edge has checked and normalised
 * every value (kernel/schemas.ts); what is left is which fields a given value changes: undefined
 * leaves a field as it is, null clears a clearable field and leaves any other as it is.
 */
export function applyChanges<E extends object, I extends object>(entity: E, input: I, fields: { readonly set?: readonly (keyof I & keyof E)[]; readonly clearable?: readonly (keyof I & keyof E)[] }): void {
  const from = input as Record<PropertyKey, unknown>;
  const to = entity as Record<PropertyKey, unknown>;
  for (const key of fields.set ?? []) if (from[key] != null) to[key] = from[key];
  for (const key of fields.clearable ?? []) if (from[key] !== undefined) to[key] = from[key];
}

// TEMPORARY (removed once every service takes checked inputs): the old field rules.
/**
 * Writing a create-or-update input onto its entity: each field a service declares is copied when
 * given, through a check that turns the value into the stored one and names the field in its
 * errors. What is left out (undefined, or null where null means nothing) keeps the entity's value,
 * except that a create must give the required fields.
 */

/** How one field is written: `check` gets the field's name and the given value. */
export type FieldRule<V, T> =
  /** Given (not null or undefined), or the row is being created: checked, so a missing one answers "is required". */
  | { readonly kind: 'required'; readonly check: (field: string, value: V | null | undefined) => T }
  /** Given (not null or undefined): checked; left out: unchanged. */
  | { readonly kind: 'optional'; readonly check: (field: string, value: NonNullable<V>) => T }
  /** Given: checked; null: cleared (null stored); undefined: unchanged. */
  | (null extends T ? { readonly kind: 'clearable'; readonly check: (field: string, value: NonNullable<V>) => T } : never);

/** The fields of an input `I` copied onto the same-named properties of an entity `E`, in this order. */
export type InputFields<E, I> = { readonly [K in keyof I & keyof E & string]?: FieldRule<I[K], E[K]> };

export const field = {
  required: <V, T>(check: (field: string, value: V | null | undefined) => T) => ({ kind: 'required', check }) as const,
  optional: <V, T>(check: (field: string, value: NonNullable<V>) => T) => ({ kind: 'optional', check }) as const,
  clearable: <V, T>(check: (field: string, value: NonNullable<V>) => T | null) => ({ kind: 'clearable', check }) as const,
};

/** Copies the declared fields of `input` onto `entity` (see FieldRule); a check's error stops at the first bad field. */
export function applyInput<E extends object, I extends object>(entity: E, input: I, creating: boolean, fields: InputFields<E, I>): void {
  const from = input as Record<string, unknown>;
  const to = entity as Record<string, unknown>;
  for (const [key, rule] of Object.entries(fields) as [string, { kind: string; check: (field: string, value: unknown) => unknown }][]) {
    const value = from[key];
    if (value != null || (creating && rule.kind === 'required')) to[key] = rule.check(key, value);
    else if (value === null && rule.kind === 'clearable') to[key] = null;
  }
}
