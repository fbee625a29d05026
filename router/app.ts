import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import type { GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { createMcpFacade } from '../facades/mcp/server.ts';
import { createRestFacade } from '../facades/rest/facade.ts';
import type { Config } from '../subgraphs/kernel/config.ts';
import { recentMessages } from '../subgraphs/kernel/outbox/index.ts';
import { composeSupergraph, subgraphUrl } from './compose.ts';
import { docsRoute } from './docs.ts';
import { createGateway, inProcessExecutor } from './gateway.ts';
import { MODULES, SUBGRAPH_PORTS } from './modules.ts';
import { startPlatform, type Platform } from './platform.ts';

export interface App {
  server: Server;
  gateway: GatewayRuntime;
  platform: Platform;
  close(): Promise<void>;
}

/**
 * The router process. Embedded: every subgraph runs here, executed in-process by the gateway.
 * Distributed: subgraphs run elsewhere and the gateway reaches them over HTTP; this process
 * still opens the database for the kernel (outbox reads, readiness).
 */
export async function createApp(config: Config, options: { topology?: 'embedded' | 'distributed'; pglite?: PGlite; subgraphUrls?: Record<string, string> } = {}): Promise<App> {
  const topology = options.topology ?? 'embedded';
  const modules = topology === 'embedded' ? MODULES : [];
  const platform = await startPlatform(config, modules, { pglite: options.pglite, dispatch: topology === 'embedded' });
  const subgraphs = [];
  for (const m of MODULES) {
    subgraphs.push({ name: m.name, schema: platform.schemas.get(m.name) ?? (await m.buildSchema()), url: options.subgraphUrls?.[m.name] ?? subgraphUrl(m.name, SUBGRAPH_PORTS[m.name]) });
  }
  const { supergraphSdl } = composeSupergraph(subgraphs);
  const gateway = createGateway(
    supergraphSdl,
    topology === 'embedded'
      ? { kind: 'embedded', executors: new Map(subgraphs.map((s) => [s.name, inProcessExecutor(s.schema, platform.db, config)])) }
      : { kind: 'http' },
  );
  // SOFA and the MCP tool registry need the gateway's schema loaded before they serve.
  const apiSchema = await gateway.getSchema();
  const rest = createRestFacade(gateway, apiSchema, config);
  const mcp = createMcpFacade(gateway, apiSchema, config);
  let ready = true;

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (path === '/graphql') return await gateway(req, res);
      if (path === '/mcp') return await mcp(req, res);
      if (path === '/healthz') return json(res, 200, { status: 'ok' });
      if (path === '/readyz') {
        const dbOk = ready && (await platform.db.orm.em.getConnection().execute('select 1').then(() => true, () => false));
        return json(res, dbOk ? 200 : 503, { status: dbOk ? 'ready' : 'unavailable', topology });
      }
      if (path === '/dev/outbox' && !config.production) {
        const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
        if (!to) return json(res, 400, { success: false, error: { code: 'BAD_USER_INPUT', message: 'to: is required', details: { field: 'to' } } });
        return json(res, 200, { success: true, data: { items: await recentMessages(platform.db.orm.em.fork(), to) } });
      }
      const doc = docsRoute(path, config);
      if (doc) {
        res.writeHead(200, { 'content-type': doc.type });
        return res.end(doc.body);
      }
      return await rest(req, res);
    } catch (error) {
      console.error('[router] unhandled', error);
      if (!res.headersSent) json(res, 500, { success: false, error: { code: 'INTERNAL', message: 'Internal server error' } });
    }
  });
  server.keepAliveTimeout = 5000;

  return {
    server,
    gateway,
    platform,
    async close() {
      ready = false;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await gateway.dispose();
      await platform.stop();
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
