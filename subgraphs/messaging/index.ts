import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { messagingConstraints } from './constraints.ts';
import { ChannelConnection } from './entities/channel-connection.ts';
import { messagingJobs } from './jobs.ts';
import { messaging0001 } from './migrations/0001_channels.ts';
import { messagingReferences } from './references.ts';
import { ChannelResolver } from './resolvers/channel.resolver.ts';
import { MessageResolver } from './resolvers/message.resolver.ts';
import { messagingSubscriptions } from './subscriptions.ts';

/** Messaging: the company's channels (its own WhatsApp Business number and Twilio account) and the delivery of every outgoing message. */
export const messaging: SubgraphModule = {
  name: 'messaging',
  schema: 'messaging',
  entities: [ChannelConnection],
  migrations: [messaging0001],
  constraints: messagingConstraints,
  buildSchema: () => buildFederatedSchema({ name: 'messaging', resolvers: [ChannelResolver, MessageResolver], references: messagingReferences }),
  subscriptions: messagingSubscriptions,
  jobs: messagingJobs,
};
