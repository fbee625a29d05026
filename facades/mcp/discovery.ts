import { TOOLSETS } from '../../subgraphs/kernel/toolsets.ts';
import type { JsonSchema } from '../json-schema.ts';
import type { ToolAnnotations, ToolDefinition } from './registry.ts';

/**
 * The discovery tools: with them an agent reaches every tool of its view while listing four
 * (`/mcp/dynamic`). They are listed in dynamic mode and callable on any connection; each answers
 * over the tools the caller's view shows, and `call_tool` runs one with every check a direct call has.
 */
export const DISCOVERY_TOOL_NAMES = ['list_toolsets', 'search_tools', 'describe_tool', 'call_tool'] as const;
export type DiscoveryToolName = (typeof DISCOVERY_TOOL_NAMES)[number];

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object' } & JsonSchema;
  outputSchema?: { type: 'object' } & JsonSchema;
  annotations: ToolAnnotations;
}

const readOnly = (title: string): ToolAnnotations => ({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
const object = (properties: Record<string, JsonSchema>, required: string[] = []): { type: 'object' } & JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});
const list = (item: JsonSchema) => object({ items: { type: 'array', items: item } }, ['items']);
const text = (description: string): JsonSchema => ({ type: 'string', description });

export const DISCOVERY_TOOLS: Record<DiscoveryToolName, ListedTool> = {
  list_toolsets: {
    name: 'list_toolsets',
    title: 'List toolsets',
    description: 'The toolsets this connection shows (a toolset groups the tools of one domain), with how many tools each has and how many of them only read.',
    inputSchema: object({}),
    outputSchema: list(
      object(
        {
          name: text('Toolset name, for X-MCP-Toolsets, /mcp/x/<names> and search_tools.'),
          description: text('What its tools do.'),
          tools: { type: 'integer' },
          readOnlyTools: { type: 'integer' },
        },
        ['name', 'description', 'tools', 'readOnlyTools'],
      ),
    ),
    annotations: readOnly('List toolsets'),
  },
  search_tools: {
    name: 'search_tools',
    title: 'Search tools',
    description:
      'Finds tools by words (e.g. "refund order", "staff hours"), best match first: name, title, toolset and the first sentence of the description. Then describe_tool for its parameters, and call_tool to run it.',
    inputSchema: object(
      {
        query: { type: 'string', minLength: 1, maxLength: 200, description: 'Words to look for in tool names and descriptions.' },
        toolset: { type: 'string', enum: Object.keys(TOOLSETS), description: 'Only tools of this toolset.' },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'At most this many tools (default 10).' },
      },
      ['query'],
    ),
    outputSchema: list(
      object({
        name: text('Tool name.'),
        title: text('Title.'),
        description: text('First sentence of its description.'),
        toolset: text('Its toolset.'),
        readOnly: { type: 'boolean' },
      }),
    ),
    annotations: readOnly('Search tools'),
  },
  describe_tool: {
    name: 'describe_tool',
    title: 'Describe tool',
    description: 'One tool in full: its description, input schema (the arguments call_tool takes) and output schema.',
    inputSchema: object({ name: { type: 'string', minLength: 1, maxLength: 100, description: 'Tool name (from search_tools).' } }, ['name']),
    outputSchema: object(
      {
        name: { type: 'string' },
        title: { type: 'string' },
        description: { type: 'string' },
        toolset: { type: 'string' },
        readOnly: { type: 'boolean' },
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object' },
      },
      ['name', 'title', 'description', 'toolset', 'readOnly', 'inputSchema', 'outputSchema'],
    ),
    annotations: readOnly('Describe tool'),
  },
  call_tool: {
    name: 'call_tool',
    title: 'Call tool',
    description: 'Runs a tool by name with its arguments (as describe_tool gives them), with every check a direct call has; answers what the tool answers.',
    inputSchema: object(
      {
        name: { type: 'string', minLength: 1, maxLength: 100, description: 'Tool name.' },
        arguments: { type: 'object', description: "The tool's arguments." },
      },
      ['name'],
    ),
    annotations: { title: 'Call tool', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
};

/** The first sentence: what a search answer shows of a description. */
const firstSentence = (description: string) => /^.*?[.!?](?=\s|$)/s.exec(description)?.[0] ?? description;

export const toolsetsOf = (tools: readonly ToolDefinition[]) =>
  Object.entries(TOOLSETS).flatMap(([name, description]) => {
    const own = tools.filter((t) => t.toolset === name);
    return own.length ? [{ name, description, tools: own.length, readOnlyTools: own.filter((t) => t.readOnly).length }] : [];
  });

const wordsOf = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2),
  );

/**
 * Tools by the query's words they hold, best first: a word of the name counts three, of the title
 * or toolset two, of the description one. Words of two letters or fewer ("an", "of") are left out.
 */
export function searchTools(tools: readonly ToolDefinition[], query: string, toolset: string | undefined, limit: number) {
  const words = [...wordsOf(query)];
  return tools
    .filter((t) => !toolset || t.toolset === toolset)
    .map((t) => {
      const name = wordsOf(t.name.replace(/_/g, ' '));
      const title = wordsOf(`${t.title} ${t.toolset}`);
      const description = wordsOf(t.description);
      const score = words.reduce((sum, w) => sum + (name.has(w) ? 3 : 0) + (title.has(w) ? 2 : 0) + (description.has(w) ? 1 : 0), 0);
      return { t, score };
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.t.name.localeCompare(b.t.name))
    .slice(0, limit)
    .map(({ t }) => ({ name: t.name, title: t.title, description: firstSentence(t.description), toolset: t.toolset, readOnly: t.readOnly }));
}

export const describeTool = (t: ToolDefinition) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  toolset: t.toolset,
  readOnly: t.readOnly,
  inputSchema: t.inputSchema,
  outputSchema: t.outputSchema,
});
