import { describe, expect, it } from 'vitest';
import { http, lastMessage, uniqueEmail } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

const P = '/v6/customer-portal';
const inDays = (d: number, h = 10) => new Date(Date.UTC(2030, 0, 1 + d, h)).toISOString();

async function venue(name = 'Event Venue') {
  const company = await signupCompany(name);
  const merchant = await mcpClient(company.apiKey);
  return { company, merchant, h: { 'x-company-id': company.companyId } };
}

describe('events', () => {
  it('lists published events; registrations confirm free events and hold paid ones for payment', async () => {
    const { company, merchant, h } = await venue();
    const free = await callTool(merchant, 'create_event', {
      title: 'Open Day',
      startsAt: inDays(1),
      endsAt: inDays(1, 16),
      venue: 'Main hall',
      capacity: 50,
      status: 'published',
    });
    expect(free).toMatchObject({ slug: 'open-day', free: true, price: { amount: '0.00', currency: 'EUR' }, capacity: 50, placesLeft: 50, status: 'published' });
    const paid = await callTool(merchant, 'create_event', {
      title: 'Wine Tasting',
      startsAt: inDays(2),
      endsAt: inDays(2, 12),
      price: '25',
      status: 'published',
    });
    expect(paid).toMatchObject({ free: false, price: { amount: '25.00' }, capacity: null, placesLeft: null });
    expect((await toolError(merchant, 'create_event', { title: 'Backwards', startsAt: inDays(3), endsAt: inDays(2) })).details.field).toBe('endsAt');

    const list = await http(`${P}/events`, { headers: h });
    expect(list.body.data.items.map((e: any) => [e.slug, e.registered])).toEqual([
      ['open-day', null],
      ['wine-tasting', null],
    ]);
    expect((await http(`${P}/events?search=wine`, { headers: h })).body.data.items).toHaveLength(1);

    const email = uniqueEmail('guest');
    const since = Date.now();
    const reg = await http(`${P}/event-registrations`, { body: { eventId: 'open-day', name: 'Gus', email, quantity: 2 }, headers: h });
    expect(reg.status).toBe(201);
    expect(reg.body.data).toMatchObject({ eventId: free.id, quantity: 2, status: 'CONFIRMED', amount: { amount: '0.00' } });
    expect((await lastMessage(email, since)).subject).toMatch(/registered/);
    const access = await http(`${P}/event-registrations/${reg.body.data.id}/access`, { headers: h });
    expect(access.body.data).toMatchObject({ granted: true, reason: null, quantity: 2, event: { id: free.id } });

    const pending = await http(`${P}/event-registrations`, { body: { eventId: paid.id, name: 'Pam', phone: '+15550102030', quantity: 3 }, headers: h });
    expect(pending.body.data).toMatchObject({ status: 'PENDING_PAYMENT', amount: { amount: '75.00', currency: 'EUR' } });
    expect((await http(`${P}/event-registrations/${pending.body.data.id}/access`, { headers: h })).body.data).toMatchObject({
      granted: false,
      reason: 'PAYMENT_PENDING',
    });

    const registrations = await callTool(merchant, 'list_event_registrations', { eventId: free.id });
    expect(registrations.items.map((r: any) => r.name)).toEqual(['Gus']);
    expect((await http(`${P}/events/open-day`, { headers: h })).body.data.placesLeft).toBe(48);

    // A signed-in customer sees which events they are registered for.
    const me = await signInCustomer(company.companyId);
    await http(`${P}/event-registrations`, { body: { eventId: free.id, name: 'Me' }, headers: { ...h, ...bearer(me.token) } });
    const mine = await http(`${P}/events`, { headers: { ...h, ...bearer(me.token) } });
    expect(mine.body.data.items.map((e: any) => [e.slug, e.registered])).toEqual([
      ['open-day', true],
      ['wine-tasting', false],
    ]);
    expect((await http(`${P}/events/open-day`, { headers: { ...h, ...bearer(me.token) } })).body.data.registered).toBe(true);
  });

  it('validates registrations and refuses cancelled or unknown events', async () => {
    const { merchant, h } = await venue();
    const event = await callTool(merchant, 'create_event', { title: 'Talk', startsAt: inDays(5), endsAt: inDays(5, 11), status: 'published' });
    const cases: [Record<string, unknown>, string][] = [
      [{ eventId: event.id, email: 'a@b.example' }, 'name'],
      [{ eventId: event.id, name: 'No contact' }, 'email'],
      [{ eventId: event.id, name: 'X', email: 'bad' }, 'email'],
      [{ eventId: event.id, name: 'X', email: 'a@b.example', quantity: 0 }, 'quantity'],
    ];
    for (const [body, field] of cases) {
      const res = await http(`${P}/event-registrations`, { body, headers: h });
      expect(res.status, field).toBe(400);
      expect(res.body.error.details.field).toBe(field);
    }
    expect((await http(`${P}/event-registrations`, { body: { eventId: 'nope', name: 'X', email: 'a@b.example' }, headers: h })).status).toBe(404);
    await callTool(merchant, 'update_event', { eventId: event.id, status: 'cancelled' });
    const cancelled = await http(`${P}/event-registrations`, { body: { eventId: event.id, name: 'X', email: 'a@b.example' }, headers: h });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.error.details.reason).toBe('EVENT_CANCELLED');
    expect((await http(`${P}/event-registrations/01900000-0000-7000-8000-000000000000/access`, { headers: h })).status).toBe(404);
  });

  it('never sells more places than the capacity under concurrent registrations', async () => {
    const { merchant, h } = await venue();
    const event = await callTool(merchant, 'create_event', {
      title: 'Small class',
      startsAt: inDays(7),
      endsAt: inDays(7, 11),
      capacity: 5,
      status: 'published',
    });
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        http(`${P}/event-registrations`, { body: { eventId: event.id, name: `Racer ${i}`, email: `racer${i}@example.test` }, headers: h }),
      ),
    );
    expect(attempts.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = attempts.filter((a) => a.status === 409);
    expect(refused).toHaveLength(7);
    expect(refused.every((a) => a.body.error.details.reason === 'SOLD_OUT')).toBe(true);
    expect((await http(`${P}/events/${event.slug}`, { headers: h })).body.data.placesLeft).toBe(0);
    const two = await http(`${P}/event-registrations`, { body: { eventId: event.id, name: 'Late', email: 'late@example.test' }, headers: h });
    expect(two.status).toBe(409);
  });
});

describe('surveys', () => {
  const questions = [
    { id: 'rating', type: 'rating', label: 'How was your visit?', required: true },
    { id: 'again', type: 'single_choice', label: 'Come again?', required: true, options: ['yes', 'no', 'maybe'] },
    { id: 'liked', type: 'multi_choice', label: 'What did you like?', options: ['staff', 'price', 'music'] },
    { id: 'note', type: 'text', label: 'Anything else?' },
  ];

  it('serves published surveys, validates answers per question and aggregates responses', async () => {
    const { merchant, h } = await venue('Survey Studio');
    const survey = await callTool(merchant, 'create_survey', { title: 'Visit feedback', questions });
    expect(survey).toMatchObject({ slug: 'visit-feedback', status: 'draft' });
    expect((await http(`${P}/surveys/visit-feedback`, { headers: h })).status).toBe(404);
    expect((await http(`${P}/surveys/${survey.id}/responses`, { body: { answers: { rating: 5, again: 'yes' } }, headers: h })).status).toBe(404);
    await callTool(merchant, 'update_survey', { surveyId: survey.id, status: 'published' });
    const shown = await http(`${P}/surveys/visit-feedback`, { headers: h });
    expect(shown.body.data.questions.map((q: any) => q.id)).toEqual(['rating', 'again', 'liked', 'note']);

    const answer = (answers: Record<string, unknown>) =>
      http(`${P}/surveys/${survey.id}/responses`, { body: { answers, metadata: { source: 'kiosk' } }, headers: h });
    expect((await answer({ rating: 5, again: 'yes', liked: ['staff', 'music'] })).status).toBe(201);
    expect((await answer({ rating: 3, again: 'maybe', liked: ['staff'] })).status).toBe(201);
    const missing = await answer({ again: 'yes' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toMatchObject({ field: 'answers.rating', questionId: 'rating' });
    expect((await answer({ rating: 4, again: 'often' })).body.error.details.field).toBe('answers.again');
    expect((await answer({ rating: 9, again: 'no' })).body.error.details.field).toBe('answers.rating');
    expect((await answer({ rating: 4, again: 'no', liked: ['food'] })).body.error.details.field).toBe('answers.liked');
    expect((await answer({ rating: 4, again: 'no', extra: 1 })).body.error.details.field).toBe('answers.extra');
    expect((await http(`${P}/surveys/${survey.id}/responses`, { body: {}, headers: h })).body.error.details.field).toBe('answers');

    const results = await callTool(merchant, 'list_survey_responses', { surveyId: survey.id });
    expect(results.responses.pagination.total).toBe(2);
    const bySummary = Object.fromEntries(results.summary.map((s: any) => [s.questionId, s]));
    expect(bySummary.rating).toMatchObject({ answered: 2, average: 4 });
    expect(bySummary.again.optionCounts).toEqual([
      { option: 'yes', count: 1 },
      { option: 'no', count: 0 },
      { option: 'maybe', count: 1 },
    ]);
    expect(bySummary.liked.optionCounts).toEqual([
      { option: 'staff', count: 2 },
      { option: 'price', count: 0 },
      { option: 'music', count: 1 },
    ]);
    expect(bySummary.note).toMatchObject({ answered: 0, average: null });
    expect((await toolError(merchant, 'update_survey', { surveyId: survey.id, questions: [{ type: 'text', label: 'New' }] })).code).toBe('CONFLICT');
    expect(
      (await toolError(merchant, 'create_survey', { title: 'Bad', questions: [{ type: 'single_choice', label: 'Pick', options: ['one'] }] })).details.field,
    ).toBe('questions[0].options');
  });

  it('invites by customer id or email with one magic token each; a token answers once', async () => {
    const { company, merchant, h } = await venue('Invite Studio');
    const survey = await callTool(merchant, 'create_survey', { title: 'Quick poll', questions: questions.slice(0, 2), status: 'published' });
    const customer = await signInCustomer(company.companyId);
    const email = uniqueEmail('invitee');
    const since = Date.now();
    const invitations = await callTool(merchant, 'create_survey_invitations', { surveyId: survey.id, recipients: [customer.customerId, email] });
    const list = invitations.result;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ customerId: customer.customerId, email: null, surveyId: survey.id });
    expect(list[1]).toMatchObject({ customerId: null, email });
    expect((await lastMessage(email, since)).body).toContain(list[1].token);
    expect((await toolError(merchant, 'create_survey_invitations', { surveyId: survey.id, recipients: ['not an email'] })).details.field).toBe('recipients[0]');

    // Magic routes need no tenant header: the token names it.
    const invited = await http(`${P}/surveys/token/${list[0].token}`);
    expect(invited.status).toBe(200);
    expect(invited.body.data).toMatchObject({ survey: { id: survey.id, title: 'Quick poll' }, customerId: customer.customerId, answered: false });
    const first = await http(`${P}/surveys/token/${list[0].token}/responses`, { body: { answers: { rating: 4, again: 'yes' } } });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ surveyId: survey.id, customerId: customer.customerId, invitationId: list[0].invitationId });
    const second = await http(`${P}/surveys/token/${list[0].token}/responses`, { body: { answers: { rating: 4, again: 'yes' } } });
    expect(second.status).toBe(409);
    expect((await http(`${P}/surveys/token/${list[0].token}`)).body.data.answered).toBe(true);
    const invalid = await http(`${P}/surveys/token/${list[1].token}/responses`, { body: { answers: { again: 'yes' } } });
    expect(invalid.body.error.details.field).toBe('answers.rating');
    expect((await http(`${P}/surveys/token/not-a-token`)).status).toBe(404);
    expect((await http(`${P}/surveys/token/not-a-token/responses`, { body: { answers: {} } })).status).toBe(404);
    void h;
  });
});

describe('contact', () => {
  it('stores inquiries, tells the business, and limits each address to 5 an hour', async () => {
    const { company, merchant, h } = await venue('Contact Studio');
    const email = uniqueEmail('asker');
    const since = Date.now();
    const sent = await http(`${P}/contact`, { body: { name: 'Asker', email, message: 'Do you open on Sundays?' }, headers: h });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ name: 'Asker', email, message: 'Do you open on Sundays?' });
    const notice = await lastMessage(company.email, since);
    expect(notice.subject).toMatch(/Asker/);
    expect(notice.body).toContain('Do you open on Sundays?');
    expect((await http(`${P}/contact`, { body: { name: 'X', email }, headers: h })).body.error.details.field).toBe('message');
    expect((await http(`${P}/contact`, { body: { message: 'Hi', email }, headers: h })).body.error.details.field).toBe('name');
    expect((await http(`${P}/contact`, { body: { name: 'X', message: 'Hi' }, headers: h })).body.error.details.field).toBe('email');
    for (let i = 0; i < 4; i++) expect((await http(`${P}/contact`, { body: { name: 'Asker', email, message: `Again ${i}` }, headers: h })).status).toBe(201);
    const limited = await http(`${P}/contact`, { body: { name: 'Asker', email, message: 'Once more' }, headers: h });
    expect(limited.status).toBe(429);
    expect((await http(`${P}/contact`, { body: { name: 'Other', email: uniqueEmail(), message: 'Hello' }, headers: h })).status).toBe(201);
    const inbox = await callTool(merchant, 'list_contact_inquiries');
    expect(inbox.pagination.total).toBe(6);
    expect(inbox.items[0].name).toBe('Other');
    expect((await http(`${P}/contact`, { body: { name: 'X', email, message: 'no tenant' } })).status).toBe(400);
  });
});
