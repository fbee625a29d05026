/**
 * Signed unsubscribe links: `/unsubscribe/<payload>.<signature>`, the payload naming company,
 * customer, channel and campaign, the signature an HMAC with the platform's secret. `POST` to it
 * unsubscribes at once with no sign-in (RFC 8058 one-click, what mail clients send from the
 * `List-Unsubscribe-Post` header); `GET` shows a page with a button first, because link scanners
 * fetch every link in a message and must not unsubscribe anyone.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestContext } from '../../kernel/context.ts';
import { isUuid } from '../../kernel/ids.ts';
import type { HttpRoutes } from '../../kernel/module.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { CAMPAIGN_CHANNELS, type CampaignChannel } from '../entities/campaign.ts';

export const UNSUBSCRIBE_PREFIX = '/unsubscribe/';

export interface UnsubscribeClaim {
  companyId: string;
  customerId: string;
  channel: CampaignChannel;
  campaignId: string;
}

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(`unsubscribe:${payload}`).digest('base64url').slice(0, 32);

export function unsubscribeUrl(runtime: Runtime, claim: UnsubscribeClaim): string {
  const payload = Buffer.from([claim.companyId, claim.customerId, claim.channel, claim.campaignId].join('.')).toString('base64url');
  return `${runtime.config.publicUrl}${UNSUBSCRIBE_PREFIX}${payload}.${sign(runtime.config.jwtSecret, payload)}`;
}

export function readUnsubscribeToken(runtime: Runtime, token: string): UnsubscribeClaim | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(runtime.config.jwtSecret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const [companyId, customerId, channel, campaignId] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
  if (!isUuid(companyId) || !isUuid(customerId) || !isUuid(campaignId) || !(CAMPAIGN_CHANNELS as readonly string[]).includes(channel)) return null;
  return { companyId, customerId, channel: channel as CampaignChannel, campaignId };
}

/** Records the unsubscribe (a repeat keeps the first); answers whether it was new. */
export async function unsubscribe(runtime: Runtime, claim: UnsubscribeClaim): Promise<boolean> {
  const ctx = RequestContext.system(runtime, claim.companyId);
  return ctx.transaction(async (tx) => {
    const rows = await tx.query
      .insertInto('campaigns.suppression')
      .values({ customerId: claim.customerId, channel: claim.channel, reason: 'UNSUBSCRIBED', detail: `campaign ${claim.campaignId}`, createdAt: tx.now() })
      .onConflict((oc) =>
        oc
          .columns(['companyId', 'customerId', 'channel'])
          .doUpdateSet((eb) => ({ reason: 'UNSUBSCRIBED', detail: eb.ref('excluded.detail'), createdAt: eb.ref('excluded.createdAt') }))
          .where('campaigns.suppression.reason', '<>', 'UNSUBSCRIBED'),
      )
      .returning('customerId')
      .execute();
    // Messages of the campaign not yet sent to them are not sent.
    await tx.query
      .updateTable('campaigns.delivery')
      .set({ status: 'SKIPPED', skipReason: 'UNSUBSCRIBED', leaseUntil: null })
      .where('customerId', '=', claim.customerId)
      .where('status', '=', 'PENDING')
      .where('campaignId', 'in', (eb) => eb.selectFrom('campaigns.campaign').select('id').where('channel', '=', claim.channel))
      .execute();
    return rows.length > 0;
  });
}

const page = (res: ServerResponse, status: number, title: string, body: string) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-robots-tag': 'noindex' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style></head>
<body><h1>${title}</h1>${body}</body></html>`);
};

const CHANNEL_WORDS: Record<CampaignChannel, string> = { email: 'emails', sms: 'text messages', whatsapp: 'WhatsApp messages' };

async function handle(runtime: Runtime, req: IncomingMessage, res: ServerResponse, path: string): Promise<unknown> {
  const claim = readUnsubscribeToken(runtime, decodeURIComponent(path.slice(UNSUBSCRIBE_PREFIX.length)));
  if (!claim) return page(res, 404, 'Link not recognised', '<p>This unsubscribe link is not valid. Use the link from the latest message you received.</p>');
  if (req.method === 'POST') {
    // The body (`List-Unsubscribe=One-Click`, or the page's form) is not needed: the link says it all.
    req.resume();
    await unsubscribe(runtime, claim);
    return page(res, 200, 'You are unsubscribed', `<p>You will no longer receive marketing ${CHANNEL_WORDS[claim.channel]} from this business.</p>`);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, POST');
    return page(res, 405, 'Not allowed', '<p>Open the link in a browser.</p>');
  }
  return page(
    res,
    200,
    'Unsubscribe?',
    `<p>Stop receiving marketing ${CHANNEL_WORDS[claim.channel]} from this business?</p><form method="post"><button type="submit">Unsubscribe</button></form>`,
  );
}

export const unsubscribeRoutes: HttpRoutes = { prefixes: [UNSUBSCRIBE_PREFIX], handle };
