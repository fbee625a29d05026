import { GraphQLError } from 'graphql';

/** The one error catalogue: code → HTTP status for REST; every code is `isError` for MCP. */
export const ERROR_STATUS = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  SLOT_TAKEN: 409,
  CANCELLATION_NOT_ALLOWED: 409,
  /** The Idempotency-Key's first request is still running. */
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** The Idempotency-Key was already used for a different request. */
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  PAYMENT_FAILED: 402,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_STATUS;

export class AppError extends GraphQLError {
  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message, { extensions: { code, ...details } });
  }
}

/** 400 naming the offending field, so a client can point at it. */
export const badInput = (field: string, message: string, details: Record<string, unknown> = {}) =>
  new AppError('BAD_USER_INPUT', `${field}: ${message}`, { field, ...details });

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string, details: Record<string, unknown> = {}) => new AppError('CONFLICT', message, details);
export const unauthenticated = (message = 'Authentication required') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const rateLimited = (message: string, retryAfterSeconds?: number) =>
  new AppError('RATE_LIMITED', message, retryAfterSeconds ? { retryAfterSeconds } : {});

/** PostgreSQL error codes the services translate into catalogue errors. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_EXCLUSION_VIOLATION = '23P01';
/** Text or JSON PostgreSQL cannot store (a NUL character, an invalid escape): the client's input. */
export const PG_BAD_TEXT = new Set(['22021', '22P05', '22P02']);

export function pgErrorCode(error: unknown): string | undefined {
  let e: any = error;
  for (let i = 0; e && i < 4; i++, e = e.cause ?? e.previous) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}
