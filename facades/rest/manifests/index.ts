import { customerPortalRoutes } from './customer-portal.ts';
import { devRoutes } from './dev.ts';
import type { RestRoute } from './types.ts';

export type { RestRoute };

/** Every REST route, all surfaces. Only these fields are exposed over REST. */
export const ROUTES: RestRoute[] = [...customerPortalRoutes, ...devRoutes];
