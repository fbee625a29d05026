/** What a campaign's message says on its channel: checked when the campaign is written, rendered per recipient. */
import { badInput } from '../../kernel/errors.ts';
import { email, optionalText, parse } from '../../kernel/schemas.ts';
import type { CampaignChannel, ChannelConfig } from '../entities/campaign.ts';

export const MERGE_TAGS = ['firstName', 'lastName', 'fullName', 'email', 'phone', 'unsubscribeUrl'] as const;
type MergeTag = (typeof MERGE_TAGS)[number];
export type MergeValues = Record<MergeTag, string>;

const TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Every `{{…}}` must be a known merge tag, and no brace pair left open. */
function checkTags(field: string, text: string) {
  for (const [, name] of text.matchAll(TAG)) {
    if (!(MERGE_TAGS as readonly string[]).includes(name))
      throw badInput(field, `has an unknown merge tag {{${name}}}; known: ${MERGE_TAGS.map((t) => `{{${t}}}`).join(', ')}`);
  }
  if (text.replace(TAG, '').includes('{{')) throw badInput(field, 'has a merge tag that is not closed with }}');
}

function text(field: string, value: unknown, max: number, required: boolean): string | undefined {
  const found = parse(optionalText(max), value, field);
  if (required && !found) throw badInput(field, 'is required for this channel');
  if (found) checkTags(field, found);
  return found;
}

/** The config a channel needs, keeping only its own fields (`channelConfig.<field>` named on error). */
export function checkChannelConfig(channel: CampaignChannel, input: ChannelConfig | null | undefined): ChannelConfig {
  if (!input) throw badInput('channelConfig', 'is required');
  const f = (name: string) => `channelConfig.${name}`;
  if (channel === 'email') {
    const config: ChannelConfig = { subject: text(f('subject'), input.subject, 200, true), html: text(f('html'), input.html, 200_000, true) };
    const plain = text(f('text'), input.text, 100_000, false);
    if (plain) config.text = plain;
    const fromName = parse(optionalText(100), input.fromName, f('fromName'));
    if (fromName) {
      if (/["<>\r\n]/.test(fromName)) throw badInput(f('fromName'), 'must not contain quotes, angle brackets or line breaks');
      config.fromName = fromName;
    }
    if (input.replyTo) config.replyTo = parse(email(), input.replyTo, f('replyTo'));
    return config;
  }
  if (channel === 'sms') return { body: text(f('body'), input.body, 1600, true) };
  // WhatsApp: an approved template (name, language, parameters). Free-form text reaches only those
  // who wrote in the last 24 hours, so a campaign sends a template.
  if (!input.templateName)
    throw badInput(f('templateName'), 'is required: a WhatsApp campaign sends an approved template (templateName, language, parameters)');
  const templateName = parse(optionalText(512), input.templateName, f('templateName'))!;
  if (!/^[a-z0-9_]+$/.test(templateName)) throw badInput(f('templateName'), 'must be a template name: lower-case letters, digits and _');
  const language = parse(optionalText(15), input.language, f('language'));
  if (!language || !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(language)) throw badInput(f('language'), 'must be a template language code such as "en" or "en_US"');
  const parameters = input.parameters ?? [];
  if (!Array.isArray(parameters) || parameters.length > 20) throw badInput(f('parameters'), 'must be at most 20 values');
  parameters.forEach((p, i) => text(f(`parameters[${i}]`), p, 1024, true));
  return { templateName, language, parameters: parameters.map(String) };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const fill = (template: string, values: MergeValues, escape: (s: string) => string = (s) => s) =>
  template.replace(TAG, (_, name: MergeTag) => escape(values[name] ?? ''));

export interface RenderedMessage {
  subject?: string;
  html?: string;
  text?: string;
  body?: string;
  template?: { name: string; language: string; parameters: string[] };
}

/**
 * One recipient's message. Every message carries the unsubscribe link: where the merchant's
 * content does not place `{{unsubscribeUrl}}`, a line with it is added at the end.
 */
export function render(channel: CampaignChannel, config: ChannelConfig, values: MergeValues): RenderedMessage {
  const placed = (s?: string) => !!s && /\{\{\s*unsubscribeUrl\s*\}\}/.test(s);
  if (channel === 'email') {
    let html = fill(config.html!, values, escapeHtml);
    if (!placed(config.html)) html += `\n<p style="font-size:12px;color:#666"><a href="${escapeHtml(values.unsubscribeUrl)}">Unsubscribe</a></p>`;
    let plain = config.text ? fill(config.text, values) : undefined;
    if (plain !== undefined && !placed(config.text)) plain += `\n\nUnsubscribe: ${values.unsubscribeUrl}`;
    return { subject: fill(config.subject!, values).replace(/[\r\n]+/g, ' '), html, text: plain };
  }
  if (config.templateName)
    return { template: { name: config.templateName, language: config.language!, parameters: (config.parameters ?? []).map((p) => fill(p, values)) } };
  let body = fill(config.body!, values);
  if (!placed(config.body)) body += `\nUnsubscribe: ${values.unsubscribeUrl}`;
  return { body };
}
