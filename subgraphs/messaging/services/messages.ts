/** Reading the message log: the company's outgoing messages, newest first. */
import type { RequestContext } from '../../kernel/context.ts';
import type { Channel, MessageStatus } from '../../kernel/outbox/index.ts';
import { pageRequest, type Page } from '../../kernel/pagination.ts';
import { id, parse } from '../../kernel/schemas.ts';
import type { RowOf } from '../../kernel/tables.ts';

export type MessageRow = RowOf<'kernel.outbox_message'>;

export interface MessageFilter {
  channel?: Channel | null;
  status?: MessageStatus | null;
  campaignId?: string | null;
  customerId?: string | null;
  to?: string | null;
  page?: number | null;
  limit?: number | null;
  offset?: number | null;
}

export async function listMessages(ctx: RequestContext, filter: MessageFilter): Promise<Page<MessageRow>> {
  // The log holds every company's messages (and the platform's own): the company is named here.
  let select = ctx.query
    .selectFrom('kernel.outbox_message')
    .selectAll()
    .where('companyId', '=', ctx.companyId!)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc');
  if (filter.channel) select = select.where('channel', '=', filter.channel);
  if (filter.status) select = select.where('status', '=', filter.status);
  if (filter.campaignId) select = select.where('campaignId', '=', parse(id('campaign'), filter.campaignId, 'campaignId'));
  if (filter.customerId) select = select.where('customerId', '=', parse(id('customer'), filter.customerId, 'customerId'));
  if (filter.to) select = select.where('recipient', 'in', [...new Set([filter.to.trim(), filter.to.trim().toLowerCase()])]);
  return ctx.page(select, pageRequest(filter));
}
