import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeFromCode } from '../../router/compose-cli.ts';

const schemaDir = join(import.meta.dirname, '..', '..', 'schema');

describe('checked-in schema', () => {
  it('matches the code: run `npm run compose` after changing a subgraph', async () => {
    const { supergraphSdl, subgraphSdls } = await composeFromCode();
    for (const [name, sdl] of subgraphSdls)
      expect(readFileSync(join(schemaDir, `${name}.graphql`), 'utf8'), `schema/${name}.graphql`).toBe(sdl.trimEnd() + '\n');
    expect(readFileSync(join(schemaDir, 'supergraph.graphql'), 'utf8')).toBe(supergraphSdl.trimEnd() + '\n');
  });
});
