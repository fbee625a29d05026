/**
 * Webhook signatures as Stripe makes them: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`,
 * accepted within a tolerance of the receiver's clock (replays of old deliveries are refused).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureError } from './provider.ts';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signPayload(secret: string, body: string, atSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${atSeconds}.${body}`).digest('hex');
  return `t=${atSeconds},v1=${mac}`;
}

export function verifySignature(secret: string, body: string, header: string | undefined, nowMs: number): void {
  if (!header) throw new WebhookSignatureError('The signature header is missing');
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const [key, value] = item.split('=', 2).map((s) => s?.trim());
    if (key && value) parts.set(key, [...(parts.get(key) ?? []), value]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t)) throw new WebhookSignatureError('The signature has no timestamp');
  if (Math.abs(nowMs / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) throw new WebhookSignatureError('The signature timestamp is outside the tolerance');
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const ok = (parts.get('v1') ?? []).some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) throw new WebhookSignatureError('The signature does not match');
}
