import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { campaignsConstraints } from './constraints.ts';
import { AudienceMember, Suppression } from './entities/audience.ts';
import { Campaign, Delivery, SendThrottle } from './entities/campaign.ts';
import { Segment } from './entities/segment.ts';
import { campaignsJobs } from './jobs.ts';
import { campaigns0001 } from './migrations/0001_campaigns.ts';
import { campaigns0002 } from './migrations/0002_delivery_receipts.ts';
import { campaignsReferences } from './references.ts';
import { CampaignResolver } from './resolvers/campaign.resolver.ts';
import { SegmentResolver } from './resolvers/segment.resolver.ts';
import { customers } from './services/customers.ts';
import { unsubscribeRoutes } from './services/unsubscribe.ts';
import { campaignsSubscriptions } from './subscriptions.ts';

/** Segments of the company's customers, campaigns by email, SMS and WhatsApp, sent exactly once per recipient. */
export const campaigns: SubgraphModule = {
  name: 'campaigns',
  schema: 'campaigns',
  entities: [AudienceMember, Suppression, Segment, Campaign, Delivery, SendThrottle],
  migrations: [campaigns0001, campaigns0002],
  constraints: campaignsConstraints,
  buildSchema: () => buildFederatedSchema({ name: 'campaigns', resolvers: [SegmentResolver, CampaignResolver], references: campaignsReferences }),
  subscriptions: campaignsSubscriptions,
  jobs: campaignsJobs,
  http: unsubscribeRoutes,
  // Customers that existed before campaigns kept its audience (later ones arrive as events).
  async onStart(runtime) {
    await customers.backfill(runtime);
  },
};
