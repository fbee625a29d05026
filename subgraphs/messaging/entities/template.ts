import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

export const TEMPLATE_CATEGORIES = ['marketing', 'utility', 'authentication'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/**
 * A WhatsApp message template the company had approved by Meta, recorded by name and language with
 * its body (`{{1}}`, `{{2}}` … for the parameters): what may be sent outside the 24-hour window.
 */
export const MessageTemplateEntity = tenantEntity({
  name: 'MessageTemplate',
  schema: 'messaging',
  tableName: 'template',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    language: p.text(),
    category: p.text().$type<TemplateCategory>(),
    body: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  uniques: [{ name: 'template_name_uniq', properties: ['companyId', 'name', 'language'] }],
  checks: [{ name: 'template_category_check', expression: "category in ('marketing', 'utility', 'authentication')" }],
});
