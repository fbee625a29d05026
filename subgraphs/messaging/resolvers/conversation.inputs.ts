/** The inbox tools' inputs, checked and normalised before the services see them. */
import { z } from 'zod';
import { id, instant, optionalText, text } from '../../kernel/schemas.ts';
import type { Content } from '../services/conversations.ts';

export const templateName = () =>
  z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,512}$/, 'must be a template name: lower-case letters, digits and _');
export const templateLanguage = () =>
  z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'must be a template language code such as "en" or "en_US"');

/** Text, or a template (name, language, parameters), as a reply or a first message carries them. */
export const ContentInput = z
  .object({
    text: optionalText(4096),
    subject: optionalText(200),
    templateName: templateName().optional(),
    language: templateLanguage().optional(),
    parameters: z.array(text(1024)).max(20).optional(),
  })
  .transform((input, context): Content => {
    if (input.templateName && !input.language) {
      context.addIssue({ code: 'custom', path: ['language'], message: 'is required with templateName' });
      return z.NEVER;
    }
    return {
      text: input.text ?? null,
      subject: input.subject ?? null,
      template: input.templateName ? { name: input.templateName, language: input.language!, parameters: input.parameters ?? [] } : null,
    };
  });

export const conversationId = () => id('conversation');
export const staffId = () => id('staff member');
export const snoozeUntil = () => instant();
