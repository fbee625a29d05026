import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printSubgraphSchema } from '@apollo/subgraph';
import { Kind, parse, print, type GraphQLSchema } from 'graphql';

export interface ComposedSupergraph {
  supergraphSdl: string;
  subgraphSdls: Map<string, string>;
}

export interface SubgraphSource {
  name: string;
  schema: GraphQLSchema;
  url: string;
}

/** Composes subgraph schemas (with the URL each is reached at) into the supergraph. */
export async function composeSupergraph(subgraphs: SubgraphSource[]): Promise<ComposedSupergraph> {
  const subgraphSdls = new Map(subgraphs.map((s) => [s.name, printSubgraphSchema(s.schema)]));
  // Loaded only when composing: a start from the checked-in supergraph does without it.
  const { composeServices } = await import('@apollo/composition');
  const result = composeServices(subgraphs.map((s) => ({ name: s.name, url: s.url, typeDefs: parse(subgraphSdls.get(s.name)!) })));
  if (result.errors?.length) throw new Error(`Supergraph composition failed:\n${result.errors.map((e) => `- ${e.message}`).join('\n')}`);
  return { supergraphSdl: result.supergraphSdl!, subgraphSdls };
}

/** Where `npm run compose` writes each subgraph's SDL and the supergraph (checked in). */
export const SCHEMA_DIR = join(import.meta.dirname, '..', 'schema');

/** The subgraphs of a supergraph and their URLs: its `join__Graph` enum. */
export const JOIN_GRAPH = /@join__graph\(name: "([^"]+)", url: "([^"]*)"\)/g;

/**
 * The supergraph `npm run build` verified against (or composed from) the code it bundled
 * (scripts/snapshot.ts): set by the built entry points, which then serve it as it is.
 */
let builtSupergraph: string | undefined;

export function serveBuiltSupergraph(file: string | undefined): void {
  builtSupergraph = file;
}

/**
 * The supergraph the router serves. Composing it takes a few hundred milliseconds of every start,
 * so it is read from schema/supergraph.graphql (written by `npm run compose`, kept equal to the
 * code by test/platform/schema-drift.test.ts) with the URLs of this process put in, as long as
 * every subgraph still prints exactly as its schema/<name>.graphql: that file was composed from
 * these very SDLs. Otherwise (a subgraph changed since `npm run compose`) it is composed here.
 * A built router takes the build's copy, checked when it was built.
 */
export async function supergraphOf(subgraphs: SubgraphSource[]): Promise<string> {
  const ready = (builtSupergraph && withUrls(readFileSync(builtSupergraph, 'utf8'), subgraphs)) || checkedInSupergraph(subgraphs);
  if (ready) return ready;
  console.warn('[router] schema/*.graphql differ from the subgraphs: composing the supergraph (run `npm run compose` to update them)');
  return (await composeSupergraph(subgraphs)).supergraphSdl;
}

/** schema/supergraph.graphql with these subgraphs' URLs, if it still describes exactly these subgraphs. */
export function checkedInSupergraph(subgraphs: SubgraphSource[], dir = SCHEMA_DIR): string | undefined {
  const file = join(dir, 'supergraph.graphql');
  if (!existsSync(file)) return undefined;
  for (const s of subgraphs) {
    const sdlFile = join(dir, `${s.name}.graphql`);
    if (!existsSync(sdlFile) || readFileSync(sdlFile, 'utf8') !== printSubgraphSchema(s.schema).trimEnd() + '\n') return undefined;
  }
  return withUrls(readFileSync(file, 'utf8'), subgraphs);
}

/** A supergraph with these subgraphs' URLs, if it has exactly these subgraphs. */
function withUrls(sdl: string, subgraphs: SubgraphSource[]): string | undefined {
  const urls = new Map(subgraphs.map((s) => [s.name, s.url]));
  const graphs = [...sdl.matchAll(JOIN_GRAPH)].map((m) => m[1]);
  if (graphs.length !== urls.size || !graphs.every((name) => urls.has(name))) return undefined;
  return sdl.replace(JOIN_GRAPH, (_, name: string) => `@join__graph(name: "${name}", url: ${print({ kind: Kind.STRING, value: urls.get(name)! })})`);
}

/** The URL a subgraph is reached at in the distributed topology (SUBGRAPH_<NAME>_URL overrides). */
export function subgraphUrl(name: string, port: number, env: NodeJS.ProcessEnv = process.env): string {
  return env[`SUBGRAPH_${name.toUpperCase()}_URL`] ?? `http://127.0.0.1:${port}/graphql`;
}
