/** What posts and pages both hold, with no table of its own: ordered blocks and a publish state. */

/** A block of a post or page: a stable id, a version that grows on each edit, a type and its data. */
export interface Block {
  id: string;
  version: number;
  type: string;
  data: Record<string, unknown>;
}

/** A post or page is a draft or published (storefronts read published ones only). */
export const PUBLISH_STATES = ['draft', 'published'] as const;
export type PublishState = (typeof PUBLISH_STATES)[number];
