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

declare module '../kernel/events.ts' {
  interface DomainEvents {
    'messaging.message.status': MessageStatusChanged;
  }
}
