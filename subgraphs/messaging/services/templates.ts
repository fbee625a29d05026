/**
 * The company's WhatsApp templates: the ones Meta approved for its number, recorded by name and
 * language with their body, so a message outside the 24-hour window can name one and fill in its
 * parameters (`{{1}}`, `{{2}}` …).
 */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { pageRequest, type ListQuery, type Page } from '../../kernel/pagination.ts';
import type { RowOf } from '../../kernel/tables.ts';
import type { TemplateCategory } from '../entities/template.ts';

export type TemplateRow = RowOf<'messaging.template'>;

export interface TemplateInput {
  name: string;
  language: string;
  category: TemplateCategory;
  body: string;
}

/** The highest `{{n}}` of a body: how many parameters a message of it fills in. */
export const parameterCount = (body: string) => Math.max(0, ...[...body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1])));

function checkBody(body: string) {
  const numbers = [...body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
  const count = parameterCount(body);
  for (let n = 1; n <= count; n++)
    if (!numbers.includes(n)) throw badInput('body', `numbers its parameters {{1}} to {{${count}}} with none left out ({{${n}}} is missing)`);
  if (body.replace(/\{\{\s*\d+\s*\}\}/g, '').includes('{{')) throw badInput('body', 'has a placeholder that is not {{1}}, {{2}} …');
}

export async function listTemplates(ctx: RequestContext, query: ListQuery & { offset?: number | null }): Promise<Page<TemplateRow>> {
  let select = ctx.query.selectFrom('messaging.template').selectAll().orderBy('name').orderBy('language');
  if (query.search) select = select.where('name', 'ilike', `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return ctx.page(select, pageRequest(query));
}

export async function createTemplate(ctx: RequestContext, input: TemplateInput): Promise<TemplateRow> {
  checkBody(input.body);
  return ctx.transaction(async (tx) => {
    const now = tx.now();
    return tx.query
      .insertInto('messaging.template')
      .values({ id: newId(), ...input, createdAt: now, updatedAt: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export async function updateTemplate(ctx: RequestContext, templateId: string, changes: Partial<TemplateInput>): Promise<TemplateRow> {
  if (changes.body !== undefined) checkBody(changes.body);
  return ctx.transaction(async (tx) => {
    const row = await tx.query
      .updateTable('messaging.template')
      .set({ ...changes, updatedAt: tx.now() })
      .where('id', '=', templateId)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('Message template');
    return row;
  });
}

export async function deleteTemplate(ctx: RequestContext, templateId: string): Promise<string> {
  return ctx.transaction(async (tx) => {
    const row = await tx.query.deleteFrom('messaging.template').where('id', '=', templateId).returning('id').executeTakeFirst();
    if (!row) throw notFound('Message template');
    return row.id;
  });
}

/** The template a message names, with its parameters checked against its body; 400 naming the field otherwise. */
export async function templateFor(ctx: RequestContext, name: string, language: string, parameters: readonly string[]): Promise<TemplateRow> {
  const template = await ctx.first(ctx.query.selectFrom('messaging.template').selectAll().where('name', '=', name).where('language', '=', language));
  if (!template) throw badInput('templateName', `is not one of the company's templates in ${language} (create_message_template records an approved one)`);
  const count = parameterCount(template.body);
  if (parameters.length !== count)
    throw badInput('parameters', `must have ${count} value${count === 1 ? '' : 's'} for template ${name}, got ${parameters.length}`);
  return template;
}

/** A template's body with its parameters filled in: the text the customer reads, kept in the conversation. */
export const fillTemplate = (body: string, parameters: readonly string[]) =>
  body.replace(/\{\{\s*(\d+)\s*\}\}/g, (_, n: string) => parameters[Number(n) - 1] ?? '');
