import { GraphQLError } from 'graphql';

/** The one error catalogue: code → HTTP status for REST; every code is `isError` for MCP. */
export const ERROR_STATUS = {
  BAD_USER_INPUT: 400,
  /** A GraphQL operation over the router's limits (tokens, depth, aliases, directives, estimated cost). */
  QUERY_TOO_COMPLEX: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  /** The credential lacks the scope the operation needs (`details.required`, e.g. `booking:write`). */
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  /** A REST path that exists, called with another method (the `Allow` header lists the methods it takes). */
  METHOD_NOT_ALLOWED: 405,
  /** A retired route (the legacy /connect/v1 routes after their sunset); the message names the successor. */
  GONE: 410,
  /** A body larger than the limit (MAX_BODY_BYTES), refused before it is read. */
  PAYLOAD_TOO_LARGE: 413,
  /** A body that is not `application/json`. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  CONFLICT: 409,
  SLOT_TAKEN: 409,
  CANCELLATION_NOT_ALLOWED: 409,
  /** An order line asks for more than is in stock (`details: { field, line, variantId, available }`). */
  INSUFFICIENT_STOCK: 409,
  /** A promotion code that does not apply to the order (`details: { field: 'promotionCode', errorCode }`). */
  PROMOTION_INVALID: 400,
  /** A state change its state machine does not allow (`details: { from, to, allowed }`). */
  INVALID_STATE_TRANSITION: 409,
  /** The Idempotency-Key's first request is still running. */
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** The Idempotency-Key was already used for a different request. */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** WhatsApp outside the 24 hours after the customer's last message: only an approved template goes (`details: { field, windowEndedAt }`). */
  TEMPLATE_REQUIRED: 409,
  /** The customer opted out of the channel (STOP): nothing goes until they opt in again (`details: { channel, optedOutAt }`). */
  CONSENT_REQUIRED: 409,
  RATE_LIMITED: 429,
  /** The company's plan does not include this, or its monthly quota is used up (`details: { limit, plan, upgradeTo }`). */
  PLAN_LIMIT_REACHED: 402,
  PAYMENT_FAILED: 402,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** What each code means to a client (OpenAPI, the errors guide). */
export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  BAD_USER_INPUT: 'The input is invalid; `details.field` names the offending field and the message starts with it.',
  QUERY_TOO_COMPLEX:
    'The GraphQL operation is too large or too expensive to run; `details.limit` names the limit (`tokens`, `depth`, `aliases`, `directives` or `cost`), `details.max` its value and `details.found` what the operation has. Ask for less: fewer or smaller lists, less nesting.',
  UNAUTHENTICATED: 'No valid credential, or a one-time code that is wrong or expired (see the reason).',
  FORBIDDEN: 'The credential is valid but may not do this.',
  INSUFFICIENT_SCOPE:
    'The API key lacks the scope this operation needs; `details.required` names it (`<toolset>:read` or `<toolset>:write`). Create a key with that scope (create_api_key) or use one that has it.',
  NOT_FOUND: 'No such resource for this caller (another tenant’s ids are not found either), or no such route.',
  METHOD_NOT_ALLOWED: 'The path exists but not with this method; the `Allow` header lists the methods it takes.',
  GONE: 'The route was retired at its sunset date; `details.successor` names the route that replaces it.',
  PAYLOAD_TOO_LARGE: 'The request body is larger than the limit (1 MB unless configured otherwise); nothing was read or done.',
  UNSUPPORTED_MEDIA_TYPE: 'A request body must be JSON, sent with `Content-Type: application/json`.',
  CONFLICT: 'The request conflicts with the current data: a duplicate, or a resource not open for it (see the reason).',
  SLOT_TAKEN: 'The time slot was taken meanwhile (or has too few places left); fetch the available slots again.',
  CANCELLATION_NOT_ALLOWED: 'Past the cancellation policy’s cut-off; `details.cancellationPolicy` is the policy to show as it is.',
  INSUFFICIENT_STOCK:
    'An order line asks for more than is in stock; `details.field` names the line (`items[0]`), `details.available` says how many are left. Nothing was reserved.',
  PROMOTION_INVALID:
    'The promotion code does not apply; `details.errorCode` says why, as validate_promotion does (PROMOTION_NOT_FOUND, INACTIVE, NOT_STARTED, EXPIRED, CHANNEL_NOT_ENABLED, MINIMUM_NOT_MET, USAGE_LIMIT_REACHED, CUSTOMER_LIMIT_REACHED). Nothing was written: order without the code, or with another.',
  INVALID_STATE_TRANSITION:
    'The resource cannot move from its current state to the requested one; `details` has `from`, `to` and `allowed` (the states reachable from `from`).',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still running; retry later.',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was used for a different request.',
  TEMPLATE_REQUIRED:
    'WhatsApp takes a free-form message only within 24 hours of the customer’s last message; `details.windowEndedAt` says when that window ended (null: the customer never wrote). Send an approved template instead (`templateName`, `language`, `parameters`).',
  CONSENT_REQUIRED:
    'The customer opted out of this channel (they replied STOP); `details.optedOutAt` says when. Nothing is sent on it until they opt in again (START).',
  RATE_LIMITED: 'Too many requests or attempts; `details.retryAfterSeconds` (and the `Retry-After` header) when known.',
  PLAN_LIMIT_REACHED:
    'The company’s plan does not include this, or a limit of the plan is reached (a monthly quota, staff members); `details.limit` names the limit or feature, `details.plan` the plan the company is on and `details.upgradeTo` the plan that lifts it (get_plan_and_usage shows the limits and what is used).',
  PAYMENT_FAILED: 'The payment was declined or failed.',
  INTERNAL: 'An unexpected error on our side (no details are given).',
};

/**
 * Domain reasons: a finer cause under a code, in `extensions.reason` (REST: `error.details.reason`).
 * Each is registered here with the code it comes with; `reasonError` throws one.
 */
export const ERROR_REASONS = {
  INVALID_CODE: {
    code: 'UNAUTHENTICATED',
    description:
      'A customer one-time code was refused (wrong, used, expired, out of attempts, or none open: one answer for all, so it tells nobody whether a code is pending); request a new one.',
  },
  EXPIRED_CODE: { code: 'UNAUTHENTICATED', description: 'Organisation signup: the code has expired; request a new one.' },
  ATTEMPTS_EXHAUSTED: { code: 'RATE_LIMITED', description: 'Organisation signup: too many wrong attempts at the code; request a new one.' },
  EVENT_CANCELLED: { code: 'CONFLICT', description: 'The event is cancelled: it takes no registrations.' },
  EVENT_UNAVAILABLE: { code: 'CONFLICT', description: 'The event is not open for registration.' },
  EVENT_ENDED: { code: 'CONFLICT', description: 'The event is over.' },
  INSUFFICIENT_POINTS: {
    code: 'CONFLICT',
    description: 'The customer’s points balance does not cover the debit (a redemption or a negative adjustment); nothing was taken.',
  },
  OFFER_NOT_ACTIVE: { code: 'CONFLICT', description: 'The gift is not offered now (not active, not started or ended).' },
  OUT_OF_STOCK: { code: 'CONFLICT', description: 'The gift has too few left for the quantity asked; `details.stock` says how many remain.' },
  LIMIT_REACHED: { code: 'CONFLICT', description: 'The customer has had this gift as often as `details.limitPerCustomer` allows.' },
  TIER_REQUIRED: { code: 'CONFLICT', description: 'The gift needs a membership tier the customer has not reached (`details.tier`).' },
  ALREADY_CLAIMED: { code: 'CONFLICT', description: 'The gift claim link was used already.' },
  CLAIM_EXPIRED: { code: 'CONFLICT', description: 'The gift claim link has expired (links last 30 days).' },
  SOLD_OUT: { code: 'CONFLICT', description: 'Not enough places left for the quantity asked; `details.placesLeft` says how many remain.' },
} as const satisfies Record<string, { code: ErrorCode; description: string }>;

export type ErrorReason = keyof typeof ERROR_REASONS;

export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_STATUS;

/**
 * A GraphQL error made by any copy of graphql: a bundle holds its own, and a package it loads from
 * node_modules at run time uses another, whose class `instanceof` does not recognise. The name and
 * the shape are the same.
 */
export const isGraphQLErrorLike = (error: unknown): error is GraphQLError =>
  error instanceof GraphQLError ||
  (error instanceof Error && error.name === 'GraphQLError' && typeof (error as { extensions?: unknown }).extensions === 'object');

/** Extensions beside the code; a `reason` goes through `reasonError`, so every reason is in the catalogue. */
export type ErrorDetails = Record<string, unknown> & { reason?: never };

export class AppError extends GraphQLError {
  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message, { extensions: { code, ...details } });
  }
}

/** An error for a registered domain reason: its code comes from the catalogue. */
export function reasonError(reason: ErrorReason, message: string, details: ErrorDetails = {}): AppError {
  // The one place a reason is set: the type keeps it out of every other error's details.
  return new AppError(ERROR_REASONS[reason].code, message, { ...details, reason } as unknown as ErrorDetails);
}

/** 400 naming the offending field, so a client can point at it. */
export const badInput = (field: string, message: string, details: ErrorDetails = {}) =>
  new AppError('BAD_USER_INPUT', `${field}: ${message}`, { field, ...details });

/** A promotion code that does not apply (commerce's orders and booking's bookings answer it alike). */
export const promotionInvalid = (errorCode: string) =>
  new AppError('PROMOTION_INVALID', `promotionCode: the code does not apply (${errorCode})`, { field: 'promotionCode', errorCode });

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string, details: ErrorDetails = {}) => new AppError('CONFLICT', message, details);
export const unauthenticated = (message = 'Authentication required') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const rateLimited = (message: string, retryAfterSeconds?: number) =>
  new AppError('RATE_LIMITED', message, retryAfterSeconds ? { retryAfterSeconds } : {});

/**
 * Runs service work and puts its errors into the caller's words. A service names fields by its
 * own input (`start`, `customerEmail`); each edge (a REST route, an MCP tool) calls them what its
 * clients do (`occurrenceStart`, `customer.email`). A mapping key also renames the paths under it
 * (`customer` → `guest` turns `customer.email` into `guest.email`).
 */
export async function inCallerWords<T>(work: Promise<T> | (() => Promise<T>), words: Record<string, string>): Promise<T> {
  try {
    return await (typeof work === 'function' ? work() : work);
  } catch (error) {
    throw renameField(error, words);
  }
}

function renameField(error: unknown, words: Record<string, string>): unknown {
  if (!(error instanceof GraphQLError)) return error;
  const { code, field, ...rest } = (error.extensions ?? {}) as Record<string, unknown>;
  if (!isErrorCode(code) || typeof field !== 'string') return error;
  const renamed = callerName(field, words);
  if (renamed === field) return error;
  const message = error.message.startsWith(`${field}:`) ? `${renamed}${error.message.slice(field.length)}` : error.message;
  return new AppError(code, message, { ...rest, field: renamed } as ErrorDetails);
}

function callerName(field: string, words: Record<string, string>): string {
  if (Object.hasOwn(words, field)) return words[field];
  const prefix = Object.keys(words)
    .filter((key) => field.startsWith(`${key}.`) || field.startsWith(`${key}[`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? `${words[prefix]}${field.slice(prefix.length)}` : field;
}

/**
 * PostgreSQL error codes the error mask (federation.ts) still translates: a unique violation no
 * subgraph declared in its constraints table is a plain CONFLICT.
 */
export const PG_UNIQUE_VIOLATION = '23505';
/** Text or JSON PostgreSQL cannot store (a NUL character, an invalid escape): the client's input. */
export const PG_BAD_TEXT = new Set(['22021', '22P05', '22P02']);

/** What a database error may carry: PostgreSQL's code, and the error it wraps (node's `cause`, MikroORM's `previous`). */
type DriverError = { code?: unknown; cause?: unknown; previous?: unknown };

export function pgErrorCode(error: unknown): string | undefined {
  let e = error as DriverError | null | undefined;
  for (let i = 0; e && i < 4; i++, e = (e.cause ?? e.previous) as DriverError | null | undefined) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}
