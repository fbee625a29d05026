/**
 * Writing a checked create-or-update input onto its entity. The edge has checked and normalised
 * every value (kernel/schemas.ts); what is left is which fields a given value changes: undefined
 * leaves a field as it is, null clears a clearable field and leaves any other as it is.
 */
export function applyChanges<E extends object, I extends object>(
  entity: E,
  input: I,
  fields: { readonly set?: readonly (keyof I & keyof E)[]; readonly clearable?: readonly (keyof I & keyof E)[] },
): void {
  const from = input as Record<PropertyKey, unknown>;
  const to = entity as Record<PropertyKey, unknown>;
  for (const key of fields.set ?? []) if (from[key] != null) to[key] = from[key];
  for (const key of fields.clearable ?? []) if (from[key] !== undefined) to[key] = from[key];
}
