import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildClientSchema,
  getIntrospectionQuery,
  Kind,
  OperationTypeNode,
  parse,
  print,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type IntrospectionQuery,
} from 'graphql';
import { buildOperationNodeForField, filterSchema, pruneSchema } from '@graphql-tools/utils';
import { createSofa } from 'sofa-api';
import { HIDDEN_FIELDS, ROUTES } from '../../facades/rest/manifests/index.ts';
import { ROOT } from './proc.ts';

/** The list read compared across gateways: services with their price, category and staff (booking subgraph). */
export const SERVICES_QUERY = `query services($limit: Int) {
  services(limit: $limit) {
    items { id name durationMinutes capacity price { amount currency } category { id name } staff { id name } }
    pagination { total }
  }
}`;

/** An MCP tool's operation as the MCP facade runs it: its file plus the fragments it spreads. */
export function toolDocument(tool: string): string {
  const mcp = join(ROOT, 'facades', 'mcp');
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const file of ['common', 'service', 'booking', 'content']) {
    for (const d of parse(readFileSync(join(mcp, 'fragments', `${file}.graphql`), 'utf8')).definitions) {
      if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    }
  }
  const source = readFileSync(join(mcp, 'tools', `${tool}.graphql`), 'utf8');
  const needed = new Set<string>();
  const collect = (doc: DocumentNode) =>
    visit(doc, {
      FragmentSpread(node) {
        if (needed.has(node.name.value)) return;
        needed.add(node.name.value);
        collect({ kind: Kind.DOCUMENT, definitions: [fragments.get(node.name.value)!] });
      },
    });
  collect(parse(source));
  return [source, ...[...needed].map((n) => print(fragments.get(n)!))].join('\n');
}

/**
 * The GraphQL operation the REST facade runs for a route's root field: SOFA's generated selection
 * (depth 2, models nested as `{ id }`) over the REST-filtered schema, built here the way SOFA builds
 * it from the router's introspected schema. `variables(args)` maps root-field arguments to its
 * variable names.
 */
export async function restOperation(base: string, field: `Query.${string}`) {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });
  const { data } = (await res.json()) as { data: IntrospectionQuery };
  const allowed = new Set<string>(ROUTES.map((r) => r.field));
  const schema = pruneSchema(
    filterSchema({
      schema: buildClientSchema(data),
      rootFieldFilter: (op, name) => allowed.has(`${op}.${name}`),
      fieldFilter: (type, f) => !HIDDEN_FIELDS.has(`${type}.${f}`),
    }),
  );
  const sofa = createSofa({ schema, basePath: '/v6', depthLimit: 2 });
  const name = field.slice('Query.'.length);
  const operation = buildOperationNodeForField({
    kind: OperationTypeNode.QUERY,
    schema,
    field: name,
    models: sofa.models,
    ignore: sofa.ignore,
    circularReferenceDepth: sofa.depthLimit,
  });
  const root = operation.selectionSet.selections[0];
  const names = new Map<string, string>();
  if (root.kind === Kind.FIELD) for (const arg of root.arguments ?? []) if (arg.value.kind === Kind.VARIABLE) names.set(arg.name.value, arg.value.name.value);
  return {
    query: print(operation),
    variables: (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).map(([k, v]) => [names.get(k) ?? k, v])),
  };
}
