import type { Table } from '../kernel/tables.ts';
import type { ChannelConnection } from './entities/channel-connection.ts';

/** The messaging subgraph's tables, for `ctx.query` (kernel/tables.ts). */
declare module '../kernel/tables.ts' {
  interface Tables {
    'messaging.channel_connection': Table<typeof ChannelConnection>;
  }
}
