import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { parse, type GraphQLSchema } from 'graphql';

export interface ComposedSupergraph {
  supergraphSdl: string;
  subgraphSdls: Map<string, string>;
}

/** Composes subgraph schemas (with the URL each is reached at) into the supergraph. */
export function composeSupergraph(subgraphs: { name: string; schema: GraphQLSchema; url: string }[]): ComposedSupergraph {
  const subgraphSdls = new Map(subgraphs.map((s) => [s.name, printSubgraphSchema(s.schema)]));
  const result = composeServices(subgraphs.map((s) => ({ name: s.name, url: s.url, typeDefs: parse(subgraphSdls.get(s.name)!) })));
  if (result.errors?.length) throw new Error(`Supergraph composition failed:\n${result.errors.map((e) => `- ${e.message}`).join('\n')}`);
  return { supergraphSdl: result.supergraphSdl!, subgraphSdls };
}

/** The URL a subgraph is reached at in the distributed topology (SUBGRAPH_<NAME>_URL overrides). */
export function subgraphUrl(name: string, port: number, env: NodeJS.ProcessEnv = process.env): string {
  return env[`SUBGRAPH_${name.toUpperCase()}_URL`] ?? `http://127.0.0.1:${port}/graphql`;
}
