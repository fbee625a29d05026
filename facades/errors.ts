import { ERROR_STATUS, isErrorCode, type ErrorCode } from '../subgraphs/kernel/errors.ts';
import { coercionError, isGraphqlCoercionMessage } from '../subgraphs/kernel/graphql-words.ts';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** What is read of a GraphQL error (of any copy of graphql, or parsed from JSON); `http` is Yoga's extension. */
export interface GraphQLErrorLike {
  message?: string;
  extensions?: Record<string, unknown> & { http?: { status?: number } | null };
}

/** A GraphQL error (ours, the gateway's or SOFA's) → the REST error body and status. */
export function toErrorBody(error: GraphQLErrorLike, fallbackStatus = 500): { status: number; body: ErrorBody } {
  const ext = error.extensions ?? {};
  const message = error.message ?? 'Error';
  let code: ErrorCode;
  if (isErrorCode(ext.code)) code = ext.code;
  else if (ext.http?.status === 400 || fallbackStatus === 400 || /^Variable "\$|cannot represent|POST body sent invalid JSON/.test(message))
    code = 'BAD_USER_INPUT';
  else code = 'INTERNAL';
  // What a client never sees: the HTTP hint, which subgraph answered, and what a development
  // server attaches to an unexpected error (Yoga's `originalError`, Apollo's `stacktrace`, with paths).
  const { code: _c, http: _h, serviceName: _s, unexpected: _u, originalError: _o, stacktrace: _t, exception: _e, ...rest } = ext;
  // An unexpected error says nothing beyond its code.
  const details: Record<string, unknown> = code === 'INTERNAL' ? {} : { ...rest };
  let clean = message;
  if (code === 'INTERNAL') clean = 'Internal server error';
  else if (code === 'BAD_USER_INPUT' && isGraphqlCoercionMessage(message)) {
    // GraphQL's words (variables, type names, the value given) become ours.
    const worded = coercionError(message);
    clean = worded.message;
    if (worded.field) details.field = worded.field;
  } else if (code === 'BAD_USER_INPUT' && typeof details.field === 'string' && !message.startsWith(`${details.field}:`)) clean = `${details.field}: ${message}`;
  return { status: ERROR_STATUS[code], body: { code, message: clean, ...(Object.keys(details).length ? { details } : {}) } };
}
