import type { SubgraphModule } from '../subgraphs/kernel/module.ts';
import { booking } from '../subgraphs/booking/index.ts';
import { campaigns } from '../subgraphs/campaigns/index.ts';
import { commerce } from '../subgraphs/commerce/index.ts';
import { content } from '../subgraphs/content/index.ts';
import { loyalty } from '../subgraphs/loyalty/index.ts';
import { members } from '../subgraphs/members/index.ts';
import { messaging } from '../subgraphs/messaging/index.ts';

/** Every subgraph of the product, in the order their migrations apply. */
export const MODULES: SubgraphModule[] = [members, booking, content, commerce, loyalty, campaigns, messaging];

/** Default ports of the distributed topology (router 4000). */
export const SUBGRAPH_PORTS: Record<string, number> = {
  members: 4001,
  booking: 4002,
  content: 4003,
  commerce: 4004,
  loyalty: 4005,
  campaigns: 4006,
  messaging: 4007,
};

export function moduleNamed(name: string): SubgraphModule {
  const found = MODULES.find((m) => m.name === name);
  if (!found) throw new Error(`Unknown subgraph "${name}"; known: ${MODULES.map((m) => m.name).join(', ')}`);
  return found;
}
