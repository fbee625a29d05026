import type { Migration } from '../../kernel/module.ts';

/** The companies' own provider accounts for WhatsApp and SMS (entities/channel-connection.ts). */
export const messaging0001: Migration = {
  name: '0001_channels',
  statements: [
    'create schema if not exists messaging',
    `create table messaging.channel_connection (
      id uuid primary key,
      company_id uuid not null,
      channel text not null,
      phone_number_id text,
      account_sid text,
      from_number text,
      sealed_secret text not null,
      connected_at timestamptz not null,
      updated_at timestamptz not null,
      constraint channel_connection_company_channel_uniq unique (company_id, channel),
      constraint channel_connection_phone_number_id_uniq unique (phone_number_id),
      constraint channel_connection_from_number_uniq unique (from_number),
      constraint channel_connection_settings_check check ((channel = 'whatsapp' and phone_number_id is not null) or (channel = 'sms' and account_sid is not null and from_number is not null))
    )`,
  ],
};
