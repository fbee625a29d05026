/** The campaign tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { isUuid } from '../../kernel/ids.ts';
import { id, oneOf, text } from '../../kernel/schemas.ts';
import { CAMPAIGN_CHANNELS } from '../entities/campaign.ts';
import type { CampaignChanges, NewCampaign } from '../services/campaigns.ts';

export const CampaignId = id('campaign');

const segmentId = z
  .string({ error: (issue) => (issue.input == null ? 'is required: the segment to send to' : undefined) })
  .refine(isUuid, 'must be a segment id');

/** A field of the message: null is as absent. What each channel needs is checked against the campaign's channel by the service. */
const part = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

const channelConfig = z.object({
  subject: part,
  html: part,
  text: part,
  fromName: part,
  replyTo: part,
  body: part,
  templateName: part,
  language: part,
  parameters: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? undefined),
});

export const NewCampaignInput = z.object({
  name: text(200),
  channel: oneOf(CAMPAIGN_CHANNELS),
  recipientSource: oneOf(['segment'])
    .nullish()
    .transform((v) => v ?? 'segment'),
  segmentId,
  channelConfig: channelConfig.nullish(),
  scheduledAt: z.date().nullish(),
  status: oneOf(['DRAFT', 'SCHEDULED']).nullish(),
}) satisfies z.ZodType<NewCampaign>;

/** Changes: every field optional; null leaves a field as it is (scheduledAt: null clears the time of a draft). */
export const CampaignUpdate = NewCampaignInput.extend({
  name: text(200).nullish(),
  channel: oneOf(CAMPAIGN_CHANNELS).nullish(),
  recipientSource: oneOf(['segment']).nullish(),
  segmentId: segmentId.nullish(),
}) satisfies z.ZodType<CampaignChanges>;

export const TestAddresses = z.array(z.string()).min(1, 'must list 1 to 5 addresses').max(5, 'must list 1 to 5 addresses');
