/** One contract route → one root field of the supergraph. */
export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under /v6, with :params. */
  path: string;
  field: `Query.${string}` | `Mutation.${string}`;
  summary: string;
  status?: number;
  tag: string;
}
