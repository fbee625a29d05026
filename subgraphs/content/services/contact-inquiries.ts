/** Contact inquiries: store one (rate-limited, the business is told) and list them. */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { enqueueMessage } from '../../kernel/outbox/index.ts';
import { enforceWindowLimit } from '../../kernel/rate-limit.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { ContactInquiry } from '../entities/contact-inquiry.ts';

const WINDOW_MS = 60 * 60 * 1000;
const MAX_PER_WINDOW = 5;

/** An inquiry as the edge checked it (resolvers/contact-inquiry.inputs.ts): an email, a phone or both to answer to. */
export interface Inquiry {
  name: string;
  message: string;
  email?: string;
  phone?: string;
}

/** Stores a contact inquiry and tells the company; at most 5 per address per hour. */
export async function submitInquiry(ctx: RequestContext, input: Inquiry) {
  const { name, message } = input;
  const email = input.email ?? null;
  const phone = input.phone ?? null;
  const addresses = [email, phone].filter((a): a is string => !!a).sort();
  // Read before the transaction: the company's settings come from the kernel's cache or connection.
  const settings = await tenantSettings(ctx);
  return ctx.transaction(async (tx) => {
    const now = tx.now();
    // Each given address has its own limit (locks taken in a fixed order).
    for (const address of addresses) {
      await enforceWindowLimit(tx, {
        lockKey: `contact:${tx.companyId}:${address}`,
        count: () =>
          tx.all(
            tx.query
              .selectFrom('content.contact_inquiry')
              .select((e) => [e.fn.countAll<number>().as('n'), e.fn.min('createdAt').as('oldest')])
              .where((e) => e.or([e('email', '=', address), e('phone', '=', address)]))
              .where('createdAt', '>', new Date(now.getTime() - WINDOW_MS)),
          ),
        max: MAX_PER_WINDOW,
        windowMs: WINDOW_MS,
        message: 'Too many messages from this address',
      });
    }
    // Stamped with the same clock as the window that counts it.
    const inquiry = tx.em.create(ContactInquiry, { id: newId(), name, email, phone, message, createdAt: now });
    enqueueMessage(tx, {
      companyId: tx.companyId,
      channel: 'email',
      to: settings.ownerEmail,
      subject: `New inquiry from ${name}`,
      body: `${name} (${[email, phone].filter(Boolean).join(', ')}) wrote:\n\n${message}`,
    });
    return inquiry;
  });
}

export async function listInquiries(ctx: RequestContext, args: { page?: number | null; limit?: number | null; search?: string | null }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('content.contact_inquiry').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');
  const search = req.search && likePattern(req.search);
  if (search) select = select.where((e) => e.or([e('name', 'ilike', search), e('email', 'ilike', search), e('message', 'ilike', search)]));
  return ctx.page(select, req);
}
