import { z } from 'zod';
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { id, oneOf, parse, text } from '../../kernel/schemas.ts';
import { TEMPLATE_CATEGORIES } from '../entities/template.ts';
import * as templates from '../services/templates.ts';
import { templateLanguage, templateName } from './conversation.inputs.ts';
import { CreateTemplateInput, DeletedTemplateNode, TemplateListArgs, TemplateNode, TemplatePage, UpdateTemplateInput } from './template.types.ts';

const TemplateFields = z.object({ name: templateName(), language: templateLanguage(), category: oneOf(TEMPLATE_CATEGORIES), body: text(1024) });

const templateNode = (t: templates.TemplateRow): TemplateNode => ({ ...t, parameterCount: templates.parameterCount(t.body) });
const templateId = (value: string) => parse(id('message template'), value, 'templateId');

/** The company's WhatsApp templates (services/templates.ts). */
@Resolver(() => TemplateNode)
export class TemplateResolver {
  @Requires('merchant', 'messaging')
  @Query(() => TemplatePage, { description: 'The company’s WhatsApp templates, by name.' })
  async messageTemplates(@Ctx() ctx: RequestContext, @Args(() => TemplateListArgs) args: TemplateListArgs) {
    const page = await templates.listTemplates(ctx, args);
    return { ...page, items: page.items.map(templateNode) };
  }

  @Requires('merchant', 'messaging')
  @Mutation(() => TemplateNode, {
    description: 'Records a WhatsApp template Meta approved for the company’s number; 409 when its name and language are there already.',
  })
  async createMessageTemplate(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CreateTemplateInput, { description: 'The template.' }) input: CreateTemplateInput,
  ): Promise<TemplateNode> {
    return templateNode(await templates.createTemplate(ctx, parse(TemplateFields, input)));
  }

  @Requires('merchant', 'messaging')
  @Mutation(() => TemplateNode, { description: 'Changes a template; what is left out stays.' })
  async updateMessageTemplate(
    @Ctx() ctx: RequestContext,
    @Arg('templateId', () => ID, { description: 'The template.' }) templateIdArg: string,
    @Arg('input', () => UpdateTemplateInput, { description: 'What changes.' }) input: UpdateTemplateInput,
  ): Promise<TemplateNode> {
    return templateNode(await templates.updateTemplate(ctx, templateId(templateIdArg), parse(TemplateFields.partial(), input)));
  }

  @Requires('merchant', 'messaging')
  @Mutation(() => DeletedTemplateNode, { description: 'Deletes a template record (messages sent with it keep their text).' })
  async deleteMessageTemplate(
    @Ctx() ctx: RequestContext,
    @Arg('templateId', () => ID, { description: 'The template.' }) templateIdArg: string,
  ): Promise<DeletedTemplateNode> {
    return { id: await templates.deleteTemplate(ctx, templateId(templateIdArg)), deleted: true };
  }
}
