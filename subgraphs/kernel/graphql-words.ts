/**
 * GraphQL's own coercion messages (`Variable "$input" got invalid value "abc" at "input.limit";
 * Int cannot represent non-integer value: "abc"`) name variables and types and repeat the value
 * given, which may be megabytes. Clients get what is wrong in our words instead: the field and the
 * problem, as our own validation says it.
 */

/**
 * Finds the input field a GraphQL coercion message is about, so a 400 names it as our own
 * validation does: `Variable "$input" got invalid value … at "input.email"` → email.
 */
export function fieldOfMessage(message: string): string | undefined {
  // The path starts with the variable's name (the gateway may have renamed it): drop that.
  const at = /at "([^"]+)"/.exec(message)?.[1]?.replace(/^[^.[]+\.?/, '') || undefined;
  const missing = /Field "([^"]+)" of required type/.exec(message)?.[1] ?? /Field "([^"]+)" is not defined by type/.exec(message)?.[1];
  if (missing) return at ? `${at}.${missing}` : missing;
  if (at) return at;
  const variable = /Variable "\$([^"]+)"/.exec(message)?.[1];
  return variable && variable !== 'input' ? variable : undefined;
}

/** GraphQL's own coercion messages, which name variables and types and repeat the value given. */
const GRAPHQL_WORDS = /Variable "\$|cannot represent|is not defined by type|of required type|Expected type|Expected value of type|does not exist in "/;

/** What a GraphQL coercion message says is wrong, without GraphQL's names or the rejected value. */
export function inOurWords(message: string): string {
  const scalar = /(\w+) cannot represent/.exec(message)?.[1] ?? /Expected type "(\w+)"/.exec(message)?.[1];
  if (scalar) return SCALAR_WORDS[scalar] ?? 'is not valid';
  if (/of required type .* was not provided|must not be null/.test(message)) return 'is required';
  if (/is not defined by type/.test(message)) return 'is not a known field';
  if (/does not exist in "/.test(message)) return 'is not one of the allowed values';
  return 'is not valid';
}

const SCALAR_WORDS: Record<string, string> = {
  Int: 'must be an integer',
  Float: 'must be a number',
  String: 'must be a string',
  ID: 'must be a string',
  Boolean: 'must be true or false',
  JSONObject: 'must be a JSON object',
  DateTimeISO: 'must be an ISO-8601 date and time with offset',
  Date: 'must be a date (YYYY-MM-DD)',
  Decimal: 'must be a decimal amount such as "49.90"',
};

export const isGraphqlCoercionMessage = (message: string) => GRAPHQL_WORDS.test(message);

/** A coercion message as our own validation would say it: `limit: must be an integer`, and its field. */
export function coercionError(message: string): { message: string; field?: string } {
  const field = fieldOfMessage(message);
  const problem = inOurWords(message);
  return field ? { message: `${field}: ${problem}`, field } : { message: `The input ${problem}` };
}
