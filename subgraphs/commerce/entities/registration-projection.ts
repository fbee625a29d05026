import { p } from '@mikro-orm/core';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';

export const PAYABLE_REGISTRATION_STATUSES = ['PENDING_PAYMENT', 'PAID', 'EXPIRED', 'CONFIRMED'] as const;
export type PayableRegistrationStatus = (typeof PAYABLE_REGISTRATION_STATUSES)[number];

/**
 * What commerce knows of content's event registrations: kept from content's
 * `content.registration.created` event, never read from content's table. The amount is content's
 * (places × price at registration); commerce collects it and owns the payment window.
 * CONFIRMED: a free registration (nothing to pay); PAID and EXPIRED end a paid one's window.
 */
export const PayableRegistration = tenantEntity({
  name: 'PayableRegistration',
  schema: 'commerce',
  tableName: 'payable_registration',
  properties: {
    companyId: companyIdColumn().primary(),
    registrationId: p.uuid().primary(),
    eventId: p.uuid(),
    eventTitle: p.text(),
    customerId: p.uuid().nullable(),
    email: p.text().nullable(),
    amountMinor: p.bigint('number'),
    currency: p.character().length(3),
    status: p.text().$type<PayableRegistrationStatus>(),
    createdAt: p.datetime(),
    /** Unpaid then, the window ends and content frees the seats. */
    paymentDueAt: p.datetime(),
  },
  checks: [
    { name: 'payable_registration_amount_minor_check', expression: 'amount_minor >= 0' },
    { name: 'payable_registration_status_check', expression: `status in (${PAYABLE_REGISTRATION_STATUSES.map((s) => `'${s}'`).join(', ')})` },
  ],
});
export type PayableRegistration = InstanceType<typeof PayableRegistration.class>;
