import { customerProjection } from '../../kernel/customer-projection.ts';
import { LoyaltyCustomer } from '../entities/customer-projection.ts';

/** Loyalty's customers (kernel/customer-projection.ts): which ids points may be kept for; no facts about them. */
export const customers = customerProjection({ entity: LoyaltyCustomer, keeps: {} });
