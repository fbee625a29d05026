import type { Table } from '../kernel/tables.ts';
import type { ChannelConnection } from './entities/channel-connection.ts';
import type { Contact, Conversation, ConversationMessage } from './entities/conversation.ts';
import type { MessagingCustomer } from './entities/customer-projection.ts';
import type { MessageTemplateEntity } from './entities/template.ts';

/** The messaging subgraph's tables, for `ctx.query` (kernel/tables.ts). */
declare module '../kernel/tables.ts' {
  interface Tables {
    'messaging.channel_connection': Table<typeof ChannelConnection>;
    'messaging.customer_projection': Table<typeof MessagingCustomer>;
    'messaging.contact': Table<typeof Contact>;
    'messaging.conversation': Table<typeof Conversation>;
    'messaging.conversation_message': Table<typeof ConversationMessage>;
    'messaging.template': Table<typeof MessageTemplateEntity>;
  }
}
