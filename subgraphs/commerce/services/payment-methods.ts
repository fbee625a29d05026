/**
 * The payment methods a company offers: the built-in sandbox provider (outside production, on by
 * default) and "pay at the venue" (manual: the merchant marks the order paid). A real provider
 * (a Stripe adapter of payments/provider.ts) adds its own entries here.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { pageOfAll, pageRequest, type ListQuery } from '../../kernel/pagination.ts';

export type PaymentMethodKind = 'PROVIDER' | 'MANUAL';

export interface PaymentMethodInfo {
  id: string;
  name: string;
  kind: PaymentMethodKind;
  /** The provider that collects it (null for manual payment). */
  provider: string | null;
  description: string;
  /** A test method: no real money moves. */
  test: boolean;
}

const MANUAL: PaymentMethodInfo = {
  id: 'manual',
  name: 'Pay at the venue',
  kind: 'MANUAL',
  provider: null,
  description: 'Paid in person; the business marks the order paid.',
  test: false,
};

const SANDBOX: PaymentMethodInfo[] = [
  {
    id: 'sandbox',
    name: 'Sandbox card',
    kind: 'PROVIDER',
    provider: 'sandbox',
    description: 'Test payments on the hosted sandbox page (Pay, Decline, Cancel).',
    test: true,
  },
  {
    id: 'sandbox_success',
    name: 'Sandbox: always succeeds',
    kind: 'PROVIDER',
    provider: 'sandbox',
    description: 'Test method: the payment succeeds without a page.',
    test: true,
  },
  {
    id: 'sandbox_decline',
    name: 'Sandbox: always declined',
    kind: 'PROVIDER',
    provider: 'sandbox',
    description: 'Test method: the payment is declined.',
    test: true,
  },
  {
    id: 'sandbox_requires_action',
    name: 'Sandbox: needs the customer',
    kind: 'PROVIDER',
    provider: 'sandbox',
    description: 'Test method: the customer decides on the hosted page.',
    test: true,
  },
];

/** The active methods, in the order a checkout shows them. */
export function paymentMethods(ctx: RequestContext): PaymentMethodInfo[] {
  return ctx.config.production ? [MANUAL] : [...SANDBOX, MANUAL];
}

/** A page of the active methods (they come from the configuration, not the database), searched by name or id. */
export function listPaymentMethods(ctx: RequestContext, args: ListQuery) {
  const req = pageRequest(args);
  const search = req.search?.toLowerCase();
  const methods = paymentMethods(ctx).filter((m) => !search || m.name.toLowerCase().includes(search) || m.id.includes(search));
  return pageOfAll(methods, req);
}

/** The method a checkout names (the sandbox by default outside production, else manual). */
export function choosePaymentMethod(ctx: RequestContext, id: string | null | undefined, field = 'paymentMethodId'): PaymentMethodInfo {
  const methods = paymentMethods(ctx);
  if (id == null || id === '') return methods[0];
  const found = methods.find((m) => m.id === id);
  if (!found) throw badInput(field, `must be one of ${methods.map((m) => m.id).join(', ')}`);
  return found;
}
