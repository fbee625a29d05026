import type { IncomingMessage } from 'node:http';
import { TOOLSET_NAMES, type Toolset } from '../../subgraphs/kernel/toolsets.ts';

/**
 * What one MCP connection shows of the tools its credential may use. A client chooses by the path
 * (`/mcp`, `/mcp/readonly`, `/mcp/dynamic`, `/mcp/x/booking,shop`, `/mcp/x/booking,shop/readonly`)
 * or by headers (`X-MCP-Toolsets`, `X-MCP-Readonly: true`, `X-MCP-Dynamic: true`), for clients that
 * cannot change the URL. Read-only from either source holds whatever else is set.
 */
export interface ToolView {
  /** The toolsets shown; null for all. */
  toolsets: ReadonlySet<Toolset> | null;
  /** Hides every tool that writes, and refuses a call to one. */
  readOnly: boolean;
  /** Lists only the discovery tools (discovery.ts); every tool of the view is reached through them. */
  dynamic: boolean;
}

export const FULL_VIEW: ToolView = { toolsets: null, readOnly: false, dynamic: false };

const PATH = /^\/mcp(?:\/dynamic|\/x\/([^/]+))?(\/readonly)?\/?$/;

/** The view a request asks for, or what is wrong with what it asks (a 400 or 404 naming it). */
export function viewOf(req: IncomingMessage): ToolView | { status: number; message: string } {
  const path = (req.url ?? '/mcp').split('?')[0];
  const match = PATH.exec(path);
  if (!match) return { status: 404, message: `No MCP endpoint at ${path}; use /mcp, /mcp/readonly, /mcp/dynamic or /mcp/x/<toolsets>[/readonly]` };
  const fromPath = match[1] === undefined ? undefined : decodeURIComponent(match[1]);
  const header = req.headers['x-mcp-toolsets'];
  const listed = fromPath ?? (typeof header === 'string' && header.trim() ? header : undefined);
  let toolsets: Set<Toolset> | null = null;
  if (listed !== undefined) {
    const names = listed
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean);
    const unknown = names.filter((n) => !(TOOLSET_NAMES as string[]).includes(n));
    const source = fromPath !== undefined ? 'the path' : 'X-MCP-Toolsets';
    if (unknown.length || !names.length)
      return { status: 400, message: `${source}: unknown toolset "${unknown[0] ?? ''}"; known: ${TOOLSET_NAMES.join(', ')}` };
    toolsets = new Set(names as Toolset[]);
  }
  return {
    toolsets,
    readOnly: Boolean(match[2]) || isTrue(req.headers['x-mcp-readonly']),
    dynamic: path.startsWith('/mcp/dynamic') || isTrue(req.headers['x-mcp-dynamic']),
  };
}

const isTrue = (value: string | string[] | undefined) => typeof value === 'string' && value.trim().toLowerCase() === 'true';
