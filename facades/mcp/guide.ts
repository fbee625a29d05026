import type { ErrorBody } from '../errors.ts';

/**
 * What the MCP server tells a client that knows nothing yet: the `instructions` of its
 * `initialize` answer, how a caller without a key gets one (the error of a merchant tool called
 * without one), and the OAuth protected-resource metadata (RFC 9728) its 401 points to.
 */

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** The tools that need no key: they create the organisation and hand out its first key. */
export const SIGNUP_TOOLS = ['register_organisation_request', 'register_organisation_verify'] as const;

const HOW_TO_GET_A_KEY =
  'Every tool but the signup pair needs an API key sent as the HTTP header "Authorization: Bearer svc_mcp_…". ' +
  'No key yet: call register_organisation_request (email, organisationName, industry, country); it emails a 6-digit code; ' +
  'then call register_organisation_verify (requestId, code as a string) — the answer carries apiKey, companyId and loginUrl. ' +
  'Reconnect with the key to see every tool. A merchant who has a key creates more with create_api_key.';

export function instructions(publicUrl: string): string {
  return [
    'Operational backend for service businesses: bookings, content, commerce and campaigns, one tool per operation.',
    `Start: ${HOW_TO_GET_A_KEY}`,
    'Conventions: ids are UUID strings (pass them as returned); money is { amount, currency } with amount a decimal string in major units ("49.00"), and money you send is a decimal string or number in major units; ' +
      "times are ISO-8601 with offset, dates YYYY-MM-DD in the company's time zone; lists take page (from 1) and limit (1 to 100, default 20) and answer { items, pagination }; " +
      'optional parameters may be left out (on update tools, null clears an optional value); writes take an optional idempotencyKey that makes a retry safe.',
    'Errors come back as isError results whose text is { error: { code, message, details } }; details.field names the parameter at fault.',
    'Fewer tools: connect to /mcp/x/<toolsets> (e.g. /mcp/x/booking,shop) or send X-MCP-Toolsets; /mcp/readonly (or X-MCP-Readonly: true) hides every tool that writes; ' +
      '/mcp/dynamic (or X-MCP-Dynamic: true) lists only list_toolsets, search_tools, describe_tool and call_tool, which reach every tool.',
    `Guides: ${publicUrl}/llms.txt (index for agents), ${publicUrl}/docs (API reference); the same operations exist as REST routes under ${publicUrl}/v6.`,
  ].join('\n');
}

/** The error of a merchant tool called without a key. */
export function keyRequired(tool: string, publicUrl: string): ErrorBody {
  return {
    code: 'UNAUTHENTICATED',
    message: `${tool} needs an API key. ${HOW_TO_GET_A_KEY}`,
    details: { signupTools: [...SIGNUP_TOOLS], resourceMetadata: `${publicUrl}${PROTECTED_RESOURCE_PATH}` },
  };
}

/** The `WWW-Authenticate` of a 401 from /mcp: Bearer, pointing at the metadata (RFC 9728 §5.1). */
export function wwwAuthenticate(publicUrl: string, error?: 'invalid_token'): string {
  return `Bearer realm="mcp"${error ? `, error="${error}"` : ''}, resource_metadata="${publicUrl}${PROTECTED_RESOURCE_PATH}"`;
}

/**
 * RFC 9728 metadata of the MCP endpoint. Keys are not issued by an OAuth authorization server but
 * by the signup tools (or by create_api_key), so no `authorization_servers` is named; the extra
 * `api_key_*` members say how to get one, as §2 allows additional parameters.
 */
export function protectedResourceMetadata(publicUrl: string) {
  return {
    resource: `${publicUrl}/mcp`,
    resource_name: 'Service platform MCP server',
    bearer_methods_supported: ['header'],
    resource_documentation: `${publicUrl}/llms.txt`,
    api_key_format: 'svc_mcp_<secret>, sent as Authorization: Bearer <key> (a merchant session token is accepted too)',
    api_key_instructions: HOW_TO_GET_A_KEY,
    api_key_signup: {
      mcp_tools: [...SIGNUP_TOOLS],
      rest: [`POST ${publicUrl}/v6/dev/signup`, `POST ${publicUrl}/v6/dev/verify`],
    },
  };
}
