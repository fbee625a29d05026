import { customerProjection } from '../../kernel/customer-projection.ts';
import { MessagingCustomer } from '../entities/customer-projection.ts';

/** The customers messaging knows (kernel/customer-projection.ts): their names and addresses, to find who wrote and where to write. */
export const customers = customerProjection({
  entity: MessagingCustomer,
  keeps: { name: 'firstName', lastName: 'lastName', email: 'email', phone: 'phone' },
});
