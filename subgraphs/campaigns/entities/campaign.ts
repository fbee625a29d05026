import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';
import { Segment } from './segment.ts';

export const CAMPAIGN_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type CampaignChannel = (typeof CAMPAIGN_CHANNELS)[number];
export const CAMPAIGN_STATUSES = ['DRAFT', 'SCHEDULED', 'SENDING', 'PAUSED', 'SENT', 'CANCELLED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** What a message says, by channel (services/content.ts checks it). */
export interface ChannelConfig {
  subject?: string;
  html?: string;
  text?: string;
  fromName?: string;
  replyTo?: string;
  body?: string;
  templateName?: string;
  language?: string;
  parameters?: string[];
}

/**
 * A message to a segment on one channel. `runner` names the one chain of batch jobs that sends it
 * (services/sending.ts); `runnerSeenAt` is that chain's last sign of life.
 */
export const Campaign = tenantEntity({
  name: 'Campaign',
  schema: 'campaigns',
  tableName: 'campaign',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    channel: p.text().$type<CampaignChannel>(),
    recipientSource: p.text().$type<'segment'>(),
    segmentId: p.manyToOne(Segment).mapToPk().deleteRule('no action').deferMode('deferred'),
    channelConfig: p.json<ChannelConfig>(),
    scheduledAt: p.datetime().nullable(),
    status: p.text().$type<CampaignStatus>(),
    statusReason: p.text().nullable(),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
    consecutiveFailures: p.integer(),
    runner: p.uuid().nullable(),
    runnerSeenAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [
    { name: 'campaign_company_idx', properties: ['companyId', 'status', 'createdAt'] },
    { name: 'campaign_due_idx', expression: "create index campaign_due_idx on campaigns.campaign (scheduled_at) where status = 'SCHEDULED'" },
  ],
  checks: [
    { name: 'campaign_channel_check', expression: "channel in ('email', 'sms', 'whatsapp')" },
    { name: 'campaign_recipient_source_check', expression: "recipient_source in ('segment')" },
    { name: 'campaign_status_check', expression: `status in (${CAMPAIGN_STATUSES.map((s) => `'${s}'`).join(', ')})` },
  ],
});
export type Campaign = InstanceType<typeof Campaign.class>;

export const DELIVERY_STATUSES = ['PENDING', 'SENDING', 'SENT', 'FAILED', 'SKIPPED', 'CANCELLED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One recipient of a campaign; (campaign, customer) is the key, so nobody is written twice. */
export const Delivery = tenantEntity({
  name: 'Delivery',
  schema: 'campaigns',
  tableName: 'delivery',
  properties: {
    campaignId: p.manyToOne(Campaign).mapToPk().primary().deleteRule('cascade').deferMode('deferred'),
    customerId: p.uuid().primary(),
    address: p.text().nullable(),
    status: p.text().$type<DeliveryStatus>(),
    skipReason: p.text().nullable(),
    attempts: p.integer(),
    nextAttemptAt: p.datetime(),
    leaseUntil: p.datetime().nullable(),
    lastError: p.text().nullable(),
    providerMessageId: p.text().nullable(),
    sentAt: p.datetime().nullable(),
    /** The provider's receipts, as messaging's status events tell them. */
    deliveredAt: p.datetime().nullable(),
    readAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
  indexes: [
    {
      name: 'delivery_ready_idx',
      expression: "create index delivery_ready_idx on campaigns.delivery (campaign_id, next_attempt_at) where status in ('PENDING', 'SENDING')",
    },
  ],
  checks: [
    { name: 'delivery_status_check', expression: `status in (${DELIVERY_STATUSES.map((s) => `'${s}'`).join(', ')})` },
    { name: 'delivery_attempts_check', expression: 'attempts >= 0' },
  ],
});
export type Delivery = InstanceType<typeof Delivery.class>;

/** The next moment a company may send on a channel (services/throttle.ts). */
export const SendThrottle = tenantEntity({
  name: 'SendThrottle',
  schema: 'campaigns',
  tableName: 'send_throttle',
  properties: {
    companyId: companyIdColumn().primary(),
    channel: p.text().primary(),
    nextAt: p.datetime(),
  },
});
