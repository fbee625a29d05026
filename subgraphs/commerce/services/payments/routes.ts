/**
 * Payment routes outside /v6 (commerce's HttpRoutes, index.ts): the providers' webhook callbacks
 * (`POST /webhooks/payments/<provider>`) and the sandbox's hosted payment page
 * (`GET|POST /sandbox/pay/<intent id>`). They answer in plain HTTP: a provider reads only the
 * status, a browser the page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestContext } from '../../../kernel/context.ts';
import { toMoney } from '../../../kernel/money.ts';
import { readRaw, sendJson, sendText } from '../../../kernel/http.ts';
import type { HttpRoutes } from '../../../kernel/module.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import { WEBHOOK_QUEUE } from '../payments.ts';
import { providerFor } from './index.ts';
import { WebhookSignatureError } from './provider.ts';
import { SANDBOX_PAGE_PATH, SandboxProvider } from './sandbox.ts';

const WEBHOOK_PREFIX = '/webhooks/payments/';

export const paymentRoutes: HttpRoutes = { prefixes: [WEBHOOK_PREFIX, `${SANDBOX_PAGE_PATH}/`], handle };

async function handle(runtime: Runtime, req: IncomingMessage, res: ServerResponse, path: string): Promise<unknown> {
  if (path.startsWith(WEBHOOK_PREFIX)) return webhook(runtime, req, res, path.slice(WEBHOOK_PREFIX.length));
  if (runtime.config.production) return sendText(res, 404, 'Not found');
  return sandboxPage(runtime, req, res, decodeURIComponent(path.slice(SANDBOX_PAGE_PATH.length + 1)));
}

/**
 * A provider's callback: the signature is verified against the raw body here (a bad one is 400 and
 * nothing is queued); the verified event goes to commerce through the job queue, where it is
 * deduplicated by its event id and applied (services/payments.ts).
 */
async function webhook(runtime: Runtime, req: IncomingMessage, res: ServerResponse, providerName: string): Promise<unknown> {
  if (req.method !== 'POST') return sendJson(res, 405, { error: 'POST only' });
  let provider;
  try {
    provider = providerFor(runtime, providerName);
  } catch {
    return sendJson(res, 404, { error: 'No such provider' });
  }
  const raw = await readRaw(req);
  if (raw === null) return sendJson(res, 413, { error: 'Body too large' });
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v[0] : v]));
  let event;
  try {
    event = provider.parseWebhook(raw, headers);
  } catch (error) {
    if (error instanceof WebhookSignatureError) return sendJson(res, 400, { error: error.message });
    throw error;
  }
  await RequestContext.system(runtime, null).transaction(async (tx) =>
    tx.runAt(WEBHOOK_QUEUE, null, { companyId: event.companyId, provider: provider.name, event }),
  );
  return sendJson(res, 200, { received: true });
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The hosted page: the amount and three buttons; a decision returns the customer to the shop. */
async function sandboxPage(runtime: Runtime, req: IncomingMessage, res: ServerResponse, intentId: string): Promise<unknown> {
  const sandbox = new SandboxProvider(runtime);
  const intent = await sandbox.intent(intentId);
  if (!intent) return sendText(res, 404, 'No such sandbox payment');
  if (req.method === 'POST') {
    const raw = (await readRaw(req)) ?? '';
    const action = new URLSearchParams(raw).get('action');
    if (action !== 'pay' && action !== 'decline' && action !== 'cancel') return sendText(res, 400, 'action must be pay, decline or cancel');
    const { status, returnUrl } = await sandbox.decide(intent.id, action);
    if (returnUrl) {
      const back = new URL(returnUrl);
      back.searchParams.set('payment_intent', intent.id);
      back.searchParams.set('redirect_status', status === 'succeeded' ? 'succeeded' : status === 'canceled' ? 'canceled' : 'failed');
      res.writeHead(303, { location: back.toString() });
      return res.end();
    }
    return page(res, `Sandbox payment ${escape(status)}`, `<p>The payment is ${escape(status)}. You can close this page.</p>`);
  }
  if (req.method !== 'GET') return sendText(res, 405, 'GET or POST');
  const money = toMoney(intent.amountMinor, intent.currency);
  const open = intent.status === 'requires_action' || intent.status === 'requires_payment_method';
  const buttons = open
    ? `<form method="post"><button name="action" value="pay">Pay</button> <button name="action" value="decline">Decline</button> <button name="action" value="cancel">Cancel</button></form>`
    : `<p>This payment is ${escape(intent.status)}.</p>`;
  return page(
    res,
    'Sandbox payment',
    `<p>${escape(intent.description ?? 'Payment')}: <strong>${escape(money.amount)} ${escape(money.currency)}</strong></p><p>No real money moves: this is the sandbox provider.</p>${buttons}`,
  );
}

function page(res: ServerResponse, title: string, body: string) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${body}</body></html>`,
  );
}
