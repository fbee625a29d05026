import type { Channel, MessageStatus } from '../kernel/outbox/index.ts';

/** A message of the log moved on: sent, retried later (`queued` with the error), failed, delivered or read. */
export interface MessageStatusChanged {
  messageId: string;
  channel: Channel;
  customerId: string | null;
  campaignId: string | null;
  status: MessageStatus;
  /** When it moved (ISO-8601). */
  at: string;
  /** Attempts so far, when an attempt caused the change. */
  attempts: number | null;
  error: string | null;
  /** The provider's own code (SMTP reply, Cloud API error code, Twilio error code). */
  errorCode: string | null;
  /** The address itself is bad: suppress it. */
  hardBounce: boolean;
  /** A failed attempt's next try. */
  retryAt: string | null;
}

/** A customer's message came in (WhatsApp or SMS); `customerId` is null while the sender is unknown (members then makes them a customer). */
export interface MessageReceived {
  messageId: string;
  conversationId: string;
  contactId: string;
  customerId: string | null;
  channel: 'sms' | 'whatsapp';
  /** The sender's number, E.164. */
  from: string;
  /** The name their WhatsApp profile gives, if any. */
  name: string | null;
  text: string;
  at: string;
}

/** A customer opted out of a channel (STOP) or back in (START). */
export interface ConsentChanged {
  contactId: string;
  customerId: string | null;
  channel: 'sms' | 'whatsapp';
  address: string;
  consent: 'granted' | 'revoked';
  at: string;
}

declare module '../kernel/events.ts' {
  interface DomainEvents {
    'messaging.message.status': MessageStatusChanged;
    'messaging.message.received': MessageReceived;
    'messaging.consent.changed': ConsentChanged;
  }
}
