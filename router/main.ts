import 'reflect-metadata';
import { loadConfig } from '../subgraphs/kernel/config.ts';
import { restoreNewDataFoldersFrom } from '../subgraphs/kernel/database.ts';
import { createApp, serveBuilt } from './app.ts';
import { builtBeside, runMain } from './startup.ts';

/**
 * `npm start`: the embedded topology, every subgraph in this process, PGlite unless DATABASE_URL.
 * TOPOLOGY=distributed runs only the router, over subgraph processes (docker-compose.yml).
 */
const config = loadConfig();
// Built (dist/main.cjs, what `npm start` runs): what the build worked out beside it, and a migrated
// snapshot a new PGlite data folder starts from. From source (tsx) there are none.
serveBuilt(import.meta.url);
restoreNewDataFoldersFrom(builtBeside(import.meta.url, './pglite-snapshot'));
const topology = process.env.TOPOLOGY ?? 'embedded';
if (topology !== 'embedded' && topology !== 'distributed') throw new Error(`TOPOLOGY must be embedded or distributed, got ${topology}`);
runMain(async () => {
  const app = await createApp(config, { topology });
  app.server.listen(config.port, () => {
    console.log(`Router on ${config.publicUrl} (GraphQL /graphql, REST /v6, MCP /mcp) — ${app.platform.runtime.db.kind}`);
  });

  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log(`${signal}: draining connections and closing the database`);
      app.close().then(
        () => process.exit(0),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
});
