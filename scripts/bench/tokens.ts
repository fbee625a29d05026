import { readFileSync } from 'node:fs';
import { getEncoding } from 'js-tiktoken';
import { DISCOVERY_TOOLS } from '../../facades/mcp/discovery.ts';
import { listedTool } from '../../facades/mcp/listing.ts';
import type { ToolDefinition } from '../../facades/mcp/registry.ts';
import { TOOLSET_NAMES } from '../../subgraphs/kernel/toolsets.ts';

/** The budgets test/platform/mcp-toolsets.test.ts holds every listing to. */
export const TOKEN_BUDGETS = { dynamic: 2_000, toolset: 12_000 };

export interface ListingTokens {
  view: string;
  tools: number;
  tokens: number;
  budget?: number;
}

/**
 * The o200k tokens of each tools/list a merchant's connection can ask for (the whole list, read-only,
 * dynamic, each toolset), from the registry `npm run build` wrote, listed as the server lists them.
 */
export function listingTokens(registry = 'dist/mcp-tools.json'): ListingTokens[] {
  const tools = JSON.parse(readFileSync(registry, 'utf8')) as ToolDefinition[];
  const encoding = getEncoding('o200k_base');
  const tokens = (listed: unknown[]) => encoding.encode(JSON.stringify({ tools: listed })).length;
  const of = (view: string, chosen: ToolDefinition[], budget?: number): ListingTokens => ({
    view,
    tools: chosen.length,
    tokens: tokens(chosen.map(listedTool)),
    budget,
  });
  const dynamic = Object.values(DISCOVERY_TOOLS);
  return [
    of('/mcp', tools),
    of(
      '/mcp/readonly',
      tools.filter((t) => t.readOnly),
    ),
    { view: '/mcp/dynamic', tools: dynamic.length, tokens: tokens(dynamic), budget: TOKEN_BUDGETS.dynamic },
    ...TOOLSET_NAMES.flatMap((name) => {
      const own = tools.filter((t) => t.toolset === name);
      return own.length ? [of(`/mcp/x/${name}`, own, TOKEN_BUDGETS.toolset)] : [];
    }),
  ];
}
