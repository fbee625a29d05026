import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

export const CONNECTED_CHANNELS = ['whatsapp', 'sms'] as const;
export type ConnectedChannel = (typeof CONNECTED_CHANNELS)[number];

/**
 * A company's own account with a messaging provider: its WhatsApp Business number (Cloud API) or
 * its Twilio account and sender number. A sender belongs to one company (the provider's webhooks
 * name the company by it). The token is sealed (kernel/secrets.ts) and never returned.
 */
export const ChannelConnection = tenantEntity({
  name: 'ChannelConnection',
  schema: 'messaging',
  tableName: 'channel_connection',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    channel: p.text().$type<ConnectedChannel>(),
    /** WhatsApp: the Cloud API's phone number id. */
    phoneNumberId: p.text().nullable(),
    /** SMS: the Twilio account SID and the sender number (E.164). */
    accountSid: p.text().nullable(),
    fromNumber: p.text().nullable(),
    /** The WhatsApp access token or the Twilio auth token, sealed. */
    sealedSecret: p.text(),
    connectedAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  uniques: [
    { name: 'channel_connection_company_channel_uniq', properties: ['companyId', 'channel'] },
    { name: 'channel_connection_phone_number_id_uniq', properties: ['phoneNumberId'] },
    { name: 'channel_connection_from_number_uniq', properties: ['fromNumber'] },
  ],
  checks: [
    {
      name: 'channel_connection_settings_check',
      expression: "(channel = 'whatsapp' and phone_number_id is not null) or (channel = 'sms' and account_sid is not null and from_number is not null)",
    },
  ],
});
export type ChannelConnection = InstanceType<typeof ChannelConnection.class>;
