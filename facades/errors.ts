import { ERROR_STATUS, isErrorCode, type ErrorCode } from '../subgraphs/kernel/errors.ts';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

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

/** A GraphQL error (ours, the gateway's or SOFA's) → the REST error body and status. */
export function toErrorBody(error: { message?: string; extensions?: Record<string, any> }, fallbackStatus = 500): { status: number; body: ErrorBody } {
  const ext = error.extensions ?? {};
  const message = error.message ?? 'Error';
  let code: ErrorCode;
  if (isErrorCode(ext.code)) code = ext.code;
  else if (ext.http?.status === 400 || fallbackStatus === 400 || /^Variable "\$|cannot represent|POST body sent invalid JSON/.test(message)) code = 'BAD_USER_INPUT';
  else code = 'INTERNAL';
  const { code: _c, http: _h, serviceName: _s, unexpected: _u, ...rest } = ext;
  const details: Record<string, unknown> = { ...rest };
  if (code === 'BAD_USER_INPUT' && !details.field) {
    const field = fieldOfMessage(message);
    if (field) details.field = field;
  }
  const clean = code === 'INTERNAL' ? 'Internal server error' : code === 'BAD_USER_INPUT' && details.field && !message.startsWith(`${details.field}:`) ? `${details.field}: ${message}` : message;
  return { status: ERROR_STATUS[code], body: { code, message: clean, ...(Object.keys(details).length ? { details } : {}) } };
}
