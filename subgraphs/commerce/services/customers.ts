import { customerProjection } from '../../kernel/customer-projection.ts';
import { CommerceCustomer } from '../entities/customer-projection.ts';

/** Commerce's customers (kernel/customer-projection.ts): who may be named on an order, and their contact facts for its messages. */
export const customers = customerProjection({
  entity: CommerceCustomer,
  keeps: { name: 'name', lastName: 'lastName', email: 'email', phone: 'phone' },
});
