import type { ListedTool } from './discovery.ts';
import type { ToolDefinition } from './registry.ts';

/**
 * A tool as tools/list shows it: its output schema without descriptions (the field names say what
 * the answer holds; describe_tool gives them), a third of a listing's tokens saved.
 */
export const listedTool = (tool: ToolDefinition): ListedTool => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema as ListedTool['inputSchema'],
  outputSchema: withoutDescriptions(tool.outputSchema) as ListedTool['outputSchema'],
  annotations: tool.annotations,
});

/** A JSON Schema without its `description` members (a property named so is kept). */
function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (!schema || typeof schema !== 'object') return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description') continue;
    kept[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, withoutDescriptions(sub)]))
        : withoutDescriptions(value);
  }
  return kept;
}
