import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { messagingConstraints } from './constraints.ts';
import { ChannelConnection } from './entities/channel-connection.ts';
import { Contact, Conversation, ConversationMessage } from './entities/conversation.ts';
import { MessagingCustomer } from './entities/customer-projection.ts';
import { MessageTemplateEntity } from './entities/template.ts';
import { messagingJobs } from './jobs.ts';
import { messaging0001 } from './migrations/0001_channels.ts';
import { messaging0002 } from './migrations/0002_inbox.ts';
import { messagingReferences } from './references.ts';
import { ChannelResolver } from './resolvers/channel.resolver.ts';
import { ConversationResolver } from './resolvers/conversation.resolver.ts';
import { MessageResolver } from './resolvers/message.resolver.ts';
import { TemplateResolver } from './resolvers/template.resolver.ts';
import { customers } from './services/customers.ts';
import { webhookRoutes } from './services/webhooks.ts';
import { messagingSubscriptions } from './subscriptions.ts';

/**
 * Messaging: the company's channels (its own WhatsApp Business number and Twilio account), the
 * delivery of every outgoing message, the inbox of conversations with customers, WhatsApp
 * templates, and the providers' webhooks.
 */
export const messaging: SubgraphModule = {
  name: 'messaging',
  schema: 'messaging',
  entities: [ChannelConnection, MessagingCustomer, Contact, Conversation, ConversationMessage, MessageTemplateEntity],
  migrations: [messaging0001, messaging0002],
  constraints: messagingConstraints,
  buildSchema: () =>
    buildFederatedSchema({
      name: 'messaging',
      resolvers: [ChannelResolver, MessageResolver, ConversationResolver, TemplateResolver],
      references: messagingReferences,
    }),
  subscriptions: messagingSubscriptions,
  jobs: messagingJobs,
  http: webhookRoutes,
  async onStart(runtime) {
    await customers.backfill(runtime);
  },
};
