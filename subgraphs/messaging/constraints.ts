import type { ConstraintTable } from '../kernel/constraints.ts';

/** What messaging's constraints mean to a client (names as in migrations/). */
export const messagingConstraints: ConstraintTable = {
  channel_connection_phone_number_id_uniq: { code: 'CONFLICT', field: 'phoneNumberId', message: 'This WhatsApp number is connected to another company' },
  channel_connection_from_number_uniq: { code: 'CONFLICT', field: 'fromNumber', message: 'This sender number is connected to another company' },
  template_name_uniq: { code: 'CONFLICT', field: 'name', message: 'A template with this name and language is recorded already' },
};
