import { p } from '@mikro-orm/core';
import { tenantEntity } from '../../kernel/tenancy.ts';

/**
 * A provider's webhook event, recorded once per provider event id in the transaction that applies
 * it: a repeat delivery finds the row and changes nothing.
 */
export const WebhookEvent = tenantEntity({
  name: 'WebhookEvent',
  schema: 'commerce',
  tableName: 'webhook_event',
  properties: {
    provider: p.text().primary(),
    eventId: p.text().primary(),
    type: p.text(),
    paymentId: p.uuid(),
    receivedAt: p.datetime(),
  },
});
export type WebhookEvent = InstanceType<typeof WebhookEvent.class>;
