import { createGraphQLError } from '@graphql-tools/utils';
import { unsafeValue } from '../facades/validate.ts';

/**
 * The checks REST and MCP run on their input (facades/validate.ts), for GraphQL clients: the
 * variables may not nest deeper than any real input or hold control characters, and neither may
 * the string literals of the document. A driver never sees a NUL, and no recursive walk below
 * (coercion, a subgraph request's JSON) meets a 5,000-level object.
 */
export function useInputGuard() {
  return {
    onParams({ params }: { params: { query?: string; variables?: Record<string, unknown> } }) {
      const problem = unsafeValue(params.variables ?? {});
      if (problem) throw badRequest(problem.field, problem.problem);
      if (params.query && ESCAPED_CONTROL_CHARACTER.test(params.query)) throw badRequest('query', 'string values must not contain control characters');
    },
  };
}

/**
 * An escape in a GraphQL string literal that makes a control character (C0 but tab, line feed and
 * carriage return; DEL): `\u0000`, `\u{7F}`, `\b`, `\f`. Raw ones are refused by the parser already.
 */
export const ESCAPED_CONTROL_CHARACTER = /(?<!\\)(?:\\\\)*\\(?:u00(?:0[0-8bcef]|1[0-9a-f]|7f)|u\{0*(?:[0-8bcef]|1[0-9a-f]|7f)\}|[bf])/i;

function badRequest(field: string, problem: string) {
  return createGraphQLError(`${field}: ${problem}`, { extensions: { code: 'BAD_USER_INPUT', field, http: { status: 400 } } });
}
