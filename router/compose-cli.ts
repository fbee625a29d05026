import 'reflect-metadata';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { composeSupergraph } from './compose.ts';
import { MODULES, SUBGRAPH_PORTS } from './modules.ts';

/** `npm run compose`: writes schema/<subgraph>.graphql and schema/supergraph.graphql from the code. */
export async function composeFromCode() {
  const subgraphs = [];
  for (const m of MODULES) subgraphs.push({ name: m.name, schema: await m.buildSchema(), url: `http://${m.name}:${SUBGRAPH_PORTS[m.name]}/graphql` });
  return composeSupergraph(subgraphs);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { supergraphSdl, subgraphSdls } = await composeFromCode();
  const dir = join(import.meta.dirname, '..', 'schema');
  mkdirSync(dir, { recursive: true });
  for (const [name, sdl] of subgraphSdls) writeFileSync(join(dir, `${name}.graphql`), sdl.trimEnd() + '\n');
  writeFileSync(join(dir, 'supergraph.graphql'), supergraphSdl.trimEnd() + '\n');
  console.log(`wrote schema/ (${[...subgraphSdls.keys()].join(', ')}, supergraph)`);
}
