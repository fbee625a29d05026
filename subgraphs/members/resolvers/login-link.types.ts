/** GraphQL shape of what a dashboard sign-in link is exchanged for: a merchant session. */
import { Field, ID, ObjectType } from 'type-graphql';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('MerchantSession')
export class MerchantSession {
  @Field(() => String) token!: string;
  @Field(() => DateTime) expiresAt!: Date;
  @Field(() => ID) companyId!: string;
}
