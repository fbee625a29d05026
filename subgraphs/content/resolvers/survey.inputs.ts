/** The survey tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { isUuid } from '../../kernel/ids.ts';
import { clearableText, email, id, oneOf, text } from '../../kernel/schemas.ts';
import { QUESTION_TYPES, SURVEY_STATES, type Question } from '../entities/survey.ts';
import { RESERVED_KEYS } from '../services/slugs.ts';
import type { IdOrSlug } from '../services/slugs.ts';
import type { Answers, Recipient, SurveyChanges, SurveyFields } from '../services/surveys.ts';
import { idOrSlug } from './keys.inputs.ts';

/** A survey by id or slug. */
export const SurveyKey = idOrSlug();

/** A survey by its id (the merchant's tools that name it `surveyId`). */
export const SurveyId = id('survey').transform((id): IdOrSlug => ({ id }));

/** The token of a magic invitation link. */
export const InvitationToken = text(200);

const isChoice = (type: string) => type === 'single_choice' || type === 'multi_choice';

const question = z
  .object({
    id: z.string().nullish(),
    type: oneOf(QUESTION_TYPES),
    options: z.array(text(200)).nullish(),
    label: text(500),
    required: z.boolean().nullish(),
  })
  .refine((q) => !isChoice(q.type) || (q.options?.length ?? 0) >= 2, { message: 'a choice question needs at least two options', path: ['options'] });

/** The questions in order; an id, the key of its answers, is given or q1, q2… by position, and used once. */
const questions = z.array(question).transform((list, ctx) => {
  const ids = new Set<string>();
  return list.map((q, i): Question => {
    const id = q.id?.trim() || `q${i + 1}`;
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(id) || RESERVED_KEYS.has(id))
      ctx.addIssue({ code: 'custom', message: 'must be letters, digits, _ or - (not a reserved name)', path: [i, 'id'] });
    else if (ids.has(id)) ctx.addIssue({ code: 'custom', message: `"${id}" appears twice`, path: [i, 'id'] });
    ids.add(id);
    return { id, type: q.type, label: q.label, required: !!q.required, ...(isChoice(q.type) ? { options: q.options! } : {}) };
  });
});

/** The slug, when given, is checked where it is chosen (kernel/slugs.ts: format, then whether it is free). */
export const NewSurvey = z.object({
  title: text(300),
  slug: z.string().nullish(),
  description: clearableText(5000),
  status: oneOf(SURVEY_STATES).nullish(),
  questions: questions.nullish(),
}) satisfies z.ZodType<SurveyFields>;

/** Changes: every field optional; null clears the description and leaves the others as they are. */
export const SurveyUpdate = NewSurvey.extend({ title: text(300).nullish() }) satisfies z.ZodType<SurveyChanges>;

const record = (message?: string) => z.record(z.string(), z.unknown(), message ? { error: message } : undefined);

/** Answers are checked against the survey's questions by the service. */
export const SurveyAnswers = z.object({
  answers: record('is required: an object of question ids to answers'),
  customerId: z.string().nullish(),
  metadata: record().nullish(),
}) satisfies z.ZodType<Answers>;

/** A customer id as it is, anything else an email address. */
const recipient = z.string().transform((r, ctx): Recipient => {
  if (isUuid(r)) return { customerId: r, email: null };
  const address = email().safeParse(r);
  if (address.success) return { customerId: null, email: address.data };
  ctx.addIssue({ code: 'custom', message: address.error.issues[0].message });
  return z.NEVER as never;
});

export const Recipients = z
  .array(recipient, { error: 'must list 1 to 500 customer ids or emails' })
  .min(1, 'must list 1 to 500 customer ids or emails')
  .max(500, 'must list 1 to 500 customer ids or emails');
