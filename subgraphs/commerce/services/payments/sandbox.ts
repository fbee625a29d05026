/**
 * The built-in sandbox provider: a payment provider that runs inside the platform, for development,
 * tests and agents. It keeps its intents in its own table (what a real provider keeps on its
 * servers), shows a hosted payment page (routes.ts) and reports every outcome through a signed
 * webhook delivered by the job queue to its callback route, exactly as a real provider would.
 *
 * Deterministic payment methods: `sandbox_success` succeeds, `sandbox_decline` is declined,
 * `sandbox_requires_action` (and plain `sandbox`) sends the customer to the hosted page, where
 * Pay, Decline and Cancel decide.
 */
import { createHmac } from 'node:crypto';
import type { Config } from '../../../kernel/config.ts';
import { RequestContext } from '../../../kernel/context.ts';
import { newId } from '../../../kernel/ids.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import type { PaymentStatus } from '../../entities/payment.ts';
import {
  WebhookSignatureError,
  type CreateIntentInput,
  type IntentState,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderEventType,
  type RefundResult,
} from './provider.ts';
import { signPayload, verifySignature } from './signature.ts';

export const SANDBOX = 'sandbox';
export const SANDBOX_METHODS = ['sandbox', 'sandbox_success', 'sandbox_decline', 'sandbox_requires_action'] as const;
export type SandboxMethod = (typeof SANDBOX_METHODS)[number];

/** The queue that delivers the sandbox's webhooks to its callback route. */
export const SANDBOX_WEBHOOK_QUEUE = 'commerce.sandbox-webhook';
export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
export const SANDBOX_CALLBACK_PATH = '/webhooks/payments/sandbox';
export const SANDBOX_PAGE_PATH = '/sandbox/pay';

/** The sandbox's webhook secret, derived from the platform's secret (nothing to configure). */
export const sandboxWebhookSecret = (config: Pick<Config, 'jwtSecret'>) =>
  createHmac('sha256', config.jwtSecret).update('commerce.sandbox.webhook').digest('hex');

/** The sandbox's job: process an intent (`settle`), or send the event it reports (`event`). */
export type SandboxJob = { settle: string } | SandboxDelivery;

/** The event the sandbox reports for an intent, kept in the delivery job until it is sent. */
export interface SandboxDelivery {
  event: {
    id: string;
    type: ProviderEventType;
    created: number;
    data: {
      object: {
        id: string;
        status: PaymentStatus;
        metadata: { paymentId: string; companyId: string };
        last_payment_error: { code: string; message: string } | null;
      };
    };
  };
}

const intentId = () => `pi_sbx_${newId().replaceAll('-', '')}`;

export class SandboxProvider implements PaymentProvider {
  readonly name = SANDBOX;

  constructor(private readonly runtime: Runtime) {}

  private get ctx() {
    return RequestContext.system(this.runtime, null);
  }

  private pageUrl(id: string) {
    return `${this.runtime.config.publicUrl}${SANDBOX_PAGE_PATH}/${id}`;
  }

  async createIntent(input: CreateIntentInput): Promise<IntentState> {
    const id = intentId();
    const method = input.paymentMethodId as SandboxMethod;
    const initial: PaymentStatus = method === 'sandbox_success' ? 'processing' : method === 'sandbox_decline' ? 'requires_payment_method' : 'requires_action';
    await this.ctx.transaction(async (tx) => {
      const now = tx.now();
      await tx.query
        .insertInto('commerce.sandbox_intent')
        .values({
          id,
          amountMinor: input.amountMinor,
          currency: input.currency,
          status: initial,
          paymentMethodId: method,
          returnUrl: input.returnUrl,
          description: input.description,
          metadataPaymentId: input.paymentId,
          metadataCompanyId: input.companyId,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      // The deterministic methods decide without the customer: a success is processed a moment
      // later (by the sandbox's own job), a decline at once, as a card network answers; either
      // way the platform learns it by webhook.
      if (method === 'sandbox_success') tx.runAt(SANDBOX_WEBHOOK_QUEUE, null, { settle: id });
      if (method === 'sandbox_decline') await this.report(tx, id, 'payment_intent.payment_failed', 'requires_payment_method', DECLINED);
    });
    return (await this.status(id)) as IntentState;
  }

  async status(providerPaymentId: string): Promise<IntentState> {
    const row = await this.find(providerPaymentId);
    if (!row) throw new Error(`Sandbox intent ${providerPaymentId} not found`);
    return {
      providerPaymentId: row.id,
      status: row.status,
      nextActionUrl: row.status === 'requires_action' ? this.pageUrl(row.id) : null,
      failureCode: row.lastErrorCode,
      failureMessage: row.lastErrorMessage,
    };
  }

  private find(id: string) {
    const ctx = this.ctx;
    return ctx.first(ctx.query.selectFrom('commerce.sandbox_intent').selectAll().where('id', '=', id));
  }

  async capture(providerPaymentId: string): Promise<IntentState> {
    // Sandbox intents capture automatically; capturing is asking for the state.
    return this.status(providerPaymentId);
  }

  async cancel(providerPaymentId: string): Promise<IntentState> {
    await this.ctx.transaction(async (tx) => {
      const moved = await tx.query
        .updateTable('commerce.sandbox_intent')
        .set({ status: 'canceled', updatedAt: tx.now() })
        .where('id', '=', providerPaymentId)
        .where('status', 'not in', ['succeeded', 'canceled'])
        .returning('id')
        .execute();
      if (moved.length) await this.report(tx, providerPaymentId, 'payment_intent.canceled', 'canceled', null);
    });
    return this.status(providerPaymentId);
  }

  async refund(providerPaymentId: string, amountMinor: number): Promise<RefundResult> {
    const rows = await this.ctx.query
      .updateTable('commerce.sandbox_intent')
      .set((e) => ({ refundedMinor: e('refundedMinor', '+', amountMinor), updatedAt: new Date(this.runtime.clock.now()) }))
      .where('id', '=', providerPaymentId)
      .where('status', '=', 'succeeded')
      .where((e) => e(e('refundedMinor', '+', amountMinor), '<=', e.ref('amountMinor')))
      .returning('id')
      .execute();
    return { refundId: `re_sbx_${newId().replaceAll('-', '')}`, amountMinor, status: rows.length ? 'succeeded' : 'failed' };
  }

  /**
   * What the hosted page's buttons do: Pay succeeds, Decline fails (the intent can be paid again),
   * Cancel ends it. Only an open intent moves; returns where to send the customer.
   */
  async decide(providerPaymentId: string, action: 'pay' | 'decline' | 'cancel'): Promise<{ moved: boolean; returnUrl: string | null; status: PaymentStatus }> {
    return this.ctx.transaction(async (tx) => {
      const row = await tx.query.selectFrom('commerce.sandbox_intent').selectAll().where('id', '=', providerPaymentId).forUpdate().executeTakeFirst();
      if (!row) throw new Error('not found');
      const open = row.status === 'requires_action' || row.status === 'requires_payment_method';
      if (!open) return { moved: false, returnUrl: row.returnUrl, status: row.status };
      if (action === 'pay') await this.settle(tx, row.id, 'succeeded');
      if (action === 'decline') await this.report(tx, row.id, 'payment_intent.payment_failed', 'requires_payment_method', DECLINED);
      if (action === 'cancel') await this.report(tx, row.id, 'payment_intent.canceled', 'canceled', null);
      const status: PaymentStatus = action === 'pay' ? 'succeeded' : action === 'decline' ? 'requires_payment_method' : 'canceled';
      return { moved: true, returnUrl: row.returnUrl, status };
    });
  }

  /** An intent as the hosted page shows it. */
  async intent(
    providerPaymentId: string,
  ): Promise<{ id: string; amountMinor: number; currency: string; status: PaymentStatus; description: string | null; returnUrl: string | null } | null> {
    const row = await this.find(providerPaymentId);
    return row
      ? {
          id: row.id,
          amountMinor: Number(row.amountMinor),
          currency: row.currency.trim(),
          status: row.status,
          description: row.description,
          returnUrl: row.returnUrl,
        }
      : null;
  }

  private settle(tx: RequestContext, id: string, status: 'succeeded') {
    return this.report(tx, id, 'payment_intent.succeeded', status, null);
  }

  /** The sandbox's processor: a `processing` intent succeeds (once). */
  async process(id: string): Promise<void> {
    await this.ctx.transaction(async (tx) => {
      const row = await tx.query
        .selectFrom('commerce.sandbox_intent')
        .select('id')
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .forUpdate()
        .executeTakeFirst();
      if (row) await this.settle(tx, id, 'succeeded');
    });
  }

  /** Moves the intent and queues the signed webhook that tells the platform, in one transaction. */
  private async report(tx: RequestContext, id: string, type: ProviderEventType, status: PaymentStatus, error: { code: string; message: string } | null) {
    const [row] = await tx.query
      .updateTable('commerce.sandbox_intent')
      .set({ status, lastErrorCode: error?.code ?? null, lastErrorMessage: error?.message ?? null, updatedAt: tx.now() })
      .where('id', '=', id)
      .returning(['metadataPaymentId', 'metadataCompanyId'])
      .execute();
    const delivery: SandboxDelivery = {
      event: {
        id: `evt_sbx_${newId().replaceAll('-', '')}`,
        type,
        created: Math.floor(tx.now().getTime() / 1000),
        data: { object: { id, status, metadata: { paymentId: row.metadataPaymentId, companyId: row.metadataCompanyId }, last_payment_error: error } },
      },
    };
    tx.runAt(SANDBOX_WEBHOOK_QUEUE, null, delivery);
  }

  parseWebhook(rawBody: string, headers: Record<string, string | undefined>): ProviderEvent {
    verifySignature(sandboxWebhookSecret(this.runtime.config), rawBody, headers[SANDBOX_SIGNATURE_HEADER], this.runtime.clock.now());
    let event: SandboxDelivery['event'];
    try {
      event = JSON.parse(rawBody);
    } catch {
      throw new WebhookSignatureError('The body is not JSON');
    }
    const object = event?.data?.object;
    if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof object?.id !== 'string' || typeof object.metadata?.paymentId !== 'string') {
      throw new WebhookSignatureError('The event is malformed');
    }
    return {
      id: event.id,
      type: event.type,
      providerPaymentId: object.id,
      paymentId: object.metadata.paymentId,
      companyId: object.metadata.companyId,
      failureCode: object.last_payment_error?.code ?? null,
      failureMessage: object.last_payment_error?.message ?? null,
    };
  }
}

const DECLINED = { code: 'card_declined', message: 'The sandbox declined the payment.' };

/**
 * The sandbox's delivery job: signs the event at sending time and posts it to the callback route,
 * as a provider's webhook sender does. A non-2xx answer throws, so the queue retries with backoff.
 */
export async function runSandboxJob(runtime: Runtime, job: SandboxJob): Promise<void> {
  if ('settle' in job) return new SandboxProvider(runtime).process(job.settle);
  const delivery = job;
  const body = JSON.stringify(delivery.event);
  const signature = signPayload(sandboxWebhookSecret(runtime.config), body, Math.floor(runtime.clock.now() / 1000));
  const res = await fetch(`${runtime.config.publicUrl}${SANDBOX_CALLBACK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
    body,
  });
  if (!res.ok) throw new Error(`The webhook callback answered ${res.status}`);
}
