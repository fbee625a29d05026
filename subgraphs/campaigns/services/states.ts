import { stateMachine } from '../../kernel/states.ts';
import type { CampaignStatus } from '../entities/campaign.ts';

/**
 * A campaign's moves. SCHEDULED → SCHEDULED is a new time; SCHEDULED → PAUSED is a start found
 * more than 24 hours late; PAUSED → SENDING is resume (or the send route).
 */
export const campaignStates = stateMachine<CampaignStatus>('campaign', {
  DRAFT: ['SCHEDULED', 'SENDING', 'CANCELLED'],
  SCHEDULED: ['DRAFT', 'SCHEDULED', 'SENDING', 'PAUSED', 'CANCELLED'],
  SENDING: ['PAUSED', 'SENT', 'CANCELLED'],
  PAUSED: ['SENDING', 'CANCELLED'],
  SENT: [],
  CANCELLED: [],
});
