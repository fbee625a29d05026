import { customerProjection } from '../../kernel/customer-projection.ts';
import { CustomerProjection } from '../entities/customer-projection.ts';

/** Content's customers (kernel/customer-projection.ts): who may be invited to a survey, and their contact facts. */
export const customers = customerProjection({
  entity: CustomerProjection,
  keeps: { name: 'name', lastName: 'lastName', email: 'email', phone: 'phone', emailVerified: 'emailVerified', phoneVerified: 'phoneVerified' },
});
