import type { RequestContext } from '../../kernel/context.ts';
import { AppError, badInput, conflict, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { enqueueMessage } from '../../kernel/outbox/index.ts';
import { pageRequest } from '../../kernel/pagination.ts';
import { anyOf, queryAcrossTenants } from '../../kernel/query.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { parseDate } from '../../kernel/time.ts';
import { randomToken, sha256 } from '../../kernel/tokens.ts';
import { email, parse } from '../../kernel/schemas.ts';
import { Survey, SurveyInvitation, SurveyResponse, type Question, type SurveyState } from '../entities/survey.ts';
import { customers } from './customers.ts';
import { flushWithSlug, type IdOrSlug } from './slugs.ts';
import { surveyStates } from './states.ts';

/** A survey's fields as the edge checked them (resolvers/survey.inputs.ts); on a change, absent means unchanged. */
export interface SurveyChanges {
  title?: string | null;
  slug?: string | null;
  description?: string | null;
  status?: SurveyState | null;
  /** The questions in order, each id given or q1, q2… by position (replaces the list). */
  questions?: Question[] | null;
}

/** A new survey: a title at least. */
export interface SurveyFields extends SurveyChanges {
  title: string;
}

/** Answers to a survey, checked against its questions here; a customerId in them is only a claim. */
export interface Answers {
  answers: Record<string, unknown>;
  customerId?: string | null;
  metadata?: Record<string, unknown> | null;
}

/** Whom an invitation is for: a customer of this company, or an email address. */
export type Recipient = { customerId: string; email: null } | { customerId: null; email: string };

async function apply(ctx: RequestContext, survey: Survey, input: SurveyChanges) {
  applyChanges(survey, input, { set: ['title'], clearable: ['description'] });
  if (input.slug != null)
    survey.slug = await chooseSlug(ctx, 'content.survey', { explicit: input.slug, text: survey.title, fallback: 'untitled', exceptId: survey.id });
  if (input.questions != null) {
    if (await ctx.first(ctx.query.selectFrom('content.survey_response').select('id').where('surveyId', '=', survey.id)))
      throw conflict('The questions cannot change once responses exist; create a new survey');
    survey.questions = input.questions;
  }
  if (input.status != null) {
    if (input.status !== survey.status) surveyStates.assert(survey.status, input.status);
    if (input.status === 'published' && !survey.questions.length) throw badInput('questions', 'a published survey needs at least one question');
    survey.status = input.status;
  }
}

export async function createSurvey(ctx: RequestContext, input: SurveyFields) {
  const { title } = input;
  return ctx.transaction(async (tx) => {
    const survey = tx.em.create(Survey, {
      id: newId(),
      title,
      slug: await chooseSlug(tx, 'content.survey', { explicit: input.slug, text: title, fallback: 'untitled' }),
      status: 'draft',
      questions: [],
    });
    await apply(tx, survey, { ...input, slug: undefined });
    await flushWithSlug(tx, 'content.survey', survey, { explicit: input.slug, title });
    return survey;
  });
}

export async function updateSurvey(ctx: RequestContext, surveyId: IdOrSlug, input: SurveyChanges) {
  return ctx.transaction(async (tx) => {
    const survey = await tx.em.findOne(Survey, surveyId);
    if (!survey) throw notFound('Survey');
    await apply(tx, survey, input);
    return survey;
  });
}

export type SurveyRow = RowOf<'content.survey'>;

/** A survey by id or slug; storefronts see published surveys only. */
export async function getSurvey(ctx: RequestContext, key: IdOrSlug, publishedOnly: boolean): Promise<SurveyRow> {
  let select = ctx.query.selectFrom('content.survey').selectAll();
  select = 'id' in key ? select.where('id', '=', key.id) : select.where('slug', '=', key.slug);
  if (publishedOnly) select = select.where('status', '=', 'published');
  const survey = await ctx.first(select);
  if (!survey) throw notFound('Survey');
  return survey;
}

/**
 * One magic link per recipient (a customer id of this company or an email). The tokens are
 * returned once; emailed recipients also get their link through the outbox.
 */
export async function createInvitations(ctx: RequestContext, surveyId: IdOrSlug, recipients: Recipient[]) {
  const survey = await getSurvey(ctx, surveyId, false);
  if (survey.status !== 'published') throw new AppError('CONFLICT', 'Publish the survey before inviting people', { status: survey.status });
  // Customer ids must be this company's customers (content's projection of them, kept from members' events).
  const unknown = await customers.strangers(
    ctx,
    recipients.flatMap((r) => (r.customerId ? [r.customerId] : [])),
  );
  if (unknown.length)
    throw badInput('recipients', `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a customer' : 'are not customers'} of this company`, {
      customerIds: unknown,
    });
  // Read before the transaction: the company's settings come from the kernel's cache or connection.
  const { name: companyName } = await tenantSettings(ctx);
  const issued = recipients.map((r) => ({ ...r, id: newId(), token: randomToken(24) }));
  await ctx.transaction(async (tx) => {
    for (const r of issued) {
      tx.em.create(SurveyInvitation, { id: r.id, surveyId: survey.id, tokenHash: sha256(r.token), customerId: r.customerId, email: r.email });
      if (r.email) {
        enqueueMessage(tx, {
          companyId: tx.companyId,
          channel: 'email',
          to: r.email,
          subject: `${companyName}: ${survey.title}`,
          body: `We would value your answers to "${survey.title}": ${ctx.config.publicUrl}/surveys/${r.token}\nYour token: ${r.token}`,
          customerId: r.customerId ?? undefined,
          confidential: true,
        });
      }
    }
  });
  return issued.map((r) => ({ invitationId: r.id, token: r.token, customerId: r.customerId, email: r.email, surveyId: survey.id }));
}

/**
 * A magic token's invitation, found across tenants (the token names its company), with a context
 * scoped to that company for everything that follows. Unpublished surveys stay hidden.
 */
export async function invitationByToken(ctx: RequestContext, token: string) {
  // Across tenants, and saying so: the token is the caller's only credential, and names its company.
  const invitation = await ctx.first(
    queryAcrossTenants(ctx.em).query.selectFrom('content.survey_invitation').selectAll().where('tokenHash', '=', sha256(token)),
  );
  if (!invitation) throw notFound('Invitation');
  const scoped = ctx.scopedTo(invitation.companyId);
  const survey = await scoped.first(
    scoped.query
      .selectFrom('content.survey')
      .selectAll()
      .where('id', '=', invitation.surveyId)
      .where('status', '=', anyOf(['published', 'closed'])),
  );
  if (!survey) throw notFound('Survey');
  return { invitation, survey, ctx: scoped };
}

/** Answers checked against the questions; each problem names the question. */
function validateAnswers(survey: SurveyRow, answers: Record<string, unknown>): Record<string, unknown> {
  const byId = new Map(survey.questions.map((q) => [q.id, q]));
  for (const key of Object.keys(answers)) if (!byId.has(key)) throw badInput(`answers.${key}`, 'is not a question of this survey');
  const out: Record<string, unknown> = {};
  for (const q of survey.questions) {
    const at = `answers.${q.id}`;
    const v = Object.hasOwn(answers, q.id) ? answers[q.id] : undefined;
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length)) {
      if (q.required) throw badInput(at, `is required (${q.label})`, { questionId: q.id });
      continue;
    }
    const fail = (why: string) => badInput(at, why, { questionId: q.id });
    switch (q.type) {
      case 'text':
        if (typeof v !== 'string' || v.length > 10000) throw fail('must be text');
        break;
      case 'number':
        if (typeof v !== 'number' || !Number.isFinite(v)) throw fail('must be a number');
        break;
      case 'rating':
        if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 5) throw fail('must be a rating from 1 to 5');
        break;
      case 'email':
        parse(email(), v, at);
        break;
      case 'date':
        parseDate(at, v);
        break;
      case 'single_choice':
        if (!q.options!.includes(v as string)) throw fail(`must be one of ${q.options!.join(', ')}`);
        break;
      case 'multi_choice':
        if (!Array.isArray(v) || v.some((x) => !q.options!.includes(x)) || new Set(v).size !== v.length)
          throw fail(`must be a list of distinct options from ${q.options!.join(', ')}`);
        break;
    }
    out[q.id] = v;
  }
  return out;
}

const alreadyAnswered = () => conflict('This invitation has already been answered');

/** Answers a published survey (by id or slug). */
export async function respondToSurvey(ctx: RequestContext, surveyId: IdOrSlug, input: Answers) {
  return respond(ctx, await getSurvey(ctx, surveyId, true), input);
}

/** Answers through a magic invitation token; one response per token. */
export async function respondToInvitation(ctx: RequestContext, token: string, input: Answers) {
  const { invitation, survey, ctx: scoped } = await invitationByToken(ctx, token);
  if (invitation.respondedAt) throw alreadyAnswered();
  return respond(scoped, survey, input, invitation);
}

async function respond(ctx: RequestContext, survey: SurveyRow, input: Answers, invitation?: RowOf<'content.survey_invitation'>) {
  if (survey.status !== 'published') throw new AppError('CONFLICT', 'This survey is not open for responses', { status: survey.status });
  const answers = validateAnswers(survey, input.answers);
  const p = ctx.principal;
  // A signed-in customer answers as themself and an invitation for its recipient; a customerId in
  // an anonymous body is only a claim, kept in the metadata.
  const signedIn = p.kind === 'customer' && p.companyId === survey.companyId ? p.customerId : null;
  const customerId = signedIn ?? invitation?.customerId ?? null;
  const metadata = !customerId && input.customerId ? { ...(input.metadata ?? {}), claimedCustomerId: input.customerId } : (input.metadata ?? null);
  return ctx.transaction(async (tx) => {
    if (invitation) {
      const claimed = await tx.query
        .updateTable('content.survey_invitation')
        .set({ respondedAt: tx.now() })
        .where('id', '=', invitation.id)
        .where('respondedAt', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw alreadyAnswered();
    }
    return tx.em.create(SurveyResponse, { id: newId(), surveyId: survey.id, invitationId: invitation?.id ?? null, customerId, answers, metadata });
  });
}

/** Responses with per-question aggregates: counts per option, average rating and number. */
export async function responsesOf(ctx: RequestContext, surveyId: IdOrSlug, args: { page?: number | null; limit?: number | null }) {
  const survey = await getSurvey(ctx, surveyId, false);
  const req = pageRequest(args);
  const ofSurvey = ctx.query.selectFrom('content.survey_response').where('surveyId', '=', survey.id);
  const responses = await ctx.page(ofSurvey.selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc'), req);
  const all = await ctx.all(ofSurvey.select('answers'));
  const summary = survey.questions.map((q) => {
    const values = all.map((r) => r.answers[q.id]).filter((v) => v !== undefined && v !== null);
    const counts = q.options?.map((option) => ({ option, count: values.filter((v) => (Array.isArray(v) ? v.includes(option) : v === option)).length }));
    const numeric = values.filter((v): v is number => typeof v === 'number');
    return {
      questionId: q.id,
      label: q.label,
      type: q.type,
      answered: values.length,
      optionCounts: counts ?? null,
      average:
        (q.type === 'rating' || q.type === 'number') && numeric.length ? Math.round((numeric.reduce((a, b) => a + b, 0) / numeric.length) * 100) / 100 : null,
    };
  });
  return { survey, summary, responses };
}
