import type { Table } from '../kernel/tables.ts';
import type { AudienceMember, Suppression } from './entities/audience.ts';
import type { Campaign, Delivery, SendThrottle } from './entities/campaign.ts';
import type { Segment } from './entities/segment.ts';

/** The campaigns subgraph's tables, for `ctx.query` (kernel/tables.ts). */
declare module '../kernel/tables.ts' {
  interface Tables {
    'campaigns.audience': Table<typeof AudienceMember>;
    'campaigns.suppression': Table<typeof Suppression>;
    'campaigns.campaign': Table<typeof Campaign>;
    'campaigns.delivery': Table<typeof Delivery>;
    'campaigns.send_throttle': Table<typeof SendThrottle>;
    'campaigns.segment': Table<typeof Segment>;
  }
}
