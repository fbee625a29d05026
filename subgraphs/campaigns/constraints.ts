import type { ConstraintTable } from '../kernel/constraints.ts';

/** What campaigns' constraints mean to a client (names as in migrations/). */
export const campaignsConstraints: ConstraintTable = {
  segment_name_uniq: { code: 'CONFLICT', field: 'name', message: 'A segment with this name exists' },
  campaign_segment_id_fkey: { code: 'CONFLICT', field: 'segmentId', message: 'The segment is used by campaigns' },
};
