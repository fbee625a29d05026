import { Kind, visit, type DocumentNode } from 'graphql';

/**
 * Whether running `document` with `variables` leaves out a field of an input object written in the
 * operation, `createService(input: { name: $name, requiresStaff: $requiresStaff })` run without
 * `requiresStaff`. GraphQL leaves such a field out of the input (graphql-js does), so a service can
 * tell "not given" from "given as null"; graphql-jit sets it to null instead (upstream:
 * zalando-incubator/graphql-jit#91 and #230, open), so "not given" would mean "clear it" or "no"
 * wherever graphql-jit runs the operation (router/compiled-execution.ts: the subgraph processes
 * of the distributed topology and the one-subgraph fast path), while the embedded gateway runs
 * graphql-js. The compiled run is kept only when the answer is no; otherwise graphql-js runs the
 * operation. Decided per document once (which variables stand for such fields and have no
 * default), then per request by looking those names up in the variables.
 */
export function leavesInputFieldsOut(document: DocumentNode, variables: Record<string, unknown> | null | undefined): boolean {
  let names = fieldVariables.get(document);
  if (names === undefined) fieldVariables.set(document, (names = inputFieldVariables(document)));
  for (const name of names) if (variables?.[name] === undefined) return true;
  return false;
}

const fieldVariables = new WeakMap<DocumentNode, readonly string[]>();

/** The variables standing for a field of an input object literal, less those with a default value (never left out). */
function inputFieldVariables(document: DocumentNode): readonly string[] {
  const names = new Set<string>();
  const defaulted = new Set<string>();
  visit(document, {
    VariableDefinition(node) {
      if (node.defaultValue) defaulted.add(node.variable.name.value);
    },
    ObjectField(node) {
      if (node.value.kind === Kind.VARIABLE) names.add(node.value.name.value);
    },
  });
  return [...names].filter((name) => !defaulted.has(name));
}
