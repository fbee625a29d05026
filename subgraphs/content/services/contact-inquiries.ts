/** Contact inquiries: store one (rate-limited, the business is told) and list them. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { enqueueMessage } from '../../kernel/outbox/index.ts';
import { enforceWindowLimit } from '../../kernel/rate-limit.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { normalizeEmail, normalizePhone, requireText } from '../../kernel/validation.ts';
import { ContactInquiry } from '../entities/contact-inquiry.ts';

const WINDOW_MS = 60 * 60 * 1000;
const MAX_PER_WINDOW = 5;

/** Stores a contact inquiry and tells the company; at most 5 per address per hour. */
export async function submitInquiry(ctx: RequestContext, input: { name?: string; email?: string | null; phone?: string | null; message?: string }) {
  const name = requireText('name', input.name, 200);
  const message = requireText('message', input.message, 5000);
  const email = input.email ? normalizeEmail('email', input.email) : null;
  const phone = input.phone ? normalizePhone('phone', input.phone) : null;
  if (!email && !phone) throw badInput('email', 'an email or a phone is required so the business can answer');
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
