import { Field, Int, ObjectType } from 'type-graphql';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('LegacyRouteUsage', { description: 'How often the company called one legacy /connect/v1 route.' })
export class LegacyRouteUsageNode {
  @Field(() => String, { description: 'The legacy route, such as `GET /connect/v1/blog/posts/{slug}/`.' }) route!: string;
  @Field(() => Int, { description: 'Calls since the first one counted.' }) calls!: number;
  @Field(() => DateTime) firstCalledAt!: Date;
  @Field(() => DateTime) lastCalledAt!: Date;
}

@ObjectType('LegacyUsage', { description: "The company's use of the legacy routes and when they stop answering." })
export class LegacyUsageNode {
  @Field(() => [LegacyRouteUsageNode], { description: 'One entry per legacy route called, most called first; empty when none was.' })
  routes!: LegacyRouteUsageNode[];
  @Field(() => DateTime, { description: 'When the legacy routes were deprecated (their Deprecation header).' }) deprecatedAt!: Date;
  @Field(() => DateTime, { description: 'When they stop answering (their Sunset header); afterwards they answer 410 GONE.' }) sunsetAt!: Date;
}
