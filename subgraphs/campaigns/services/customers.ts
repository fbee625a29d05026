import { customerProjection } from '../../kernel/customer-projection.ts';
import { AudienceMember } from '../entities/audience.ts';

/**
 * The audience's customers (kernel/customer-projection.ts): their contact facts and when they
 * joined; what the audience adds of its own (tags, orders, spending, tier, last booking) starts
 * empty and is kept by services/audience.ts.
 */
export const customers = customerProjection({
  entity: AudienceMember,
  keeps: { name: 'firstName', lastName: 'lastName', email: 'email', phone: 'phone', createdAt: 'createdAt' },
  startsWith: { tags: `'{}'`, ordersCount: '0', spent: '0' },
  // An erased customer leaves their suppressions too, and is sent nothing still pending.
  async onErased(tx, customerId) {
    await tx.query.deleteFrom('campaigns.suppression').where('customerId', '=', customerId).execute();
    await tx.query
      .updateTable('campaigns.delivery')
      .set({ status: 'CANCELLED', skipReason: 'CUSTOMER_DELETED', address: null, leaseUntil: null })
      .where('customerId', '=', customerId)
      .where('status', 'in', ['PENDING', 'SENDING'])
      .execute();
  },
});
