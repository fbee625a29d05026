/** The moves content's states may make, declared once; every service that changes a state asserts the move. */
import { stateMachine } from '../../kernel/states.ts';
import type { PublishState } from '../entities/block.ts';
import type { EventState } from '../entities/event.ts';
import type { SurveyState } from '../entities/survey.ts';

/** Posts and pages: published and taken back to draft as often as the merchant likes. */
export const publishStates = stateMachine<PublishState>('post or page', {
  draft: ['published'],
  published: ['draft'],
});

/**
 * Events: a draft is published; a published event is taken back to draft (hidden) or cancelled.
 * A cancelled event stays cancelled: its registrations were told, and a draft is never announced
 * as cancelled.
 */
export const eventStates = stateMachine<EventState>('event', {
  draft: ['published'],
  published: ['draft', 'cancelled'],
  cancelled: [],
});

/** Surveys: a draft is opened (published); an open survey is closed or taken back to draft; a closed one can be reopened. */
export const surveyStates = stateMachine<SurveyState>('survey', {
  draft: ['published'],
  published: ['closed', 'draft'],
  closed: ['published'],
});
