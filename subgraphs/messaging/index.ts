import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { messagingConstraints } from './constraints.ts';
import { ChannelConnection } from './entities/channel-connection.ts';
import { messaging0001 } from './migrations/0001_channels.ts';
import { messagingReferences } from './references.ts';
import { ChannelResolver } from './resolvers/channel.resolver.ts';
import { messagingSubscriptions } from './subscriptions.ts';

/** The company's messaging channels: its own WhatsApp Business number and Twilio account, connected with sealed tokens. */
export const messaging: SubgraphModule = {
  name: 'messaging',
  schema: 'messaging',
  entities: [ChannelConnection],
  migrations: [messaging0001],
  constraints: messagingConstraints,
  buildSchema: () => buildFederatedSchema({ name: 'messaging', resolvers: [ChannelResolver], references: messagingReferences }),
  subscriptions: messagingSubscriptions,
};
