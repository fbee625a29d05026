/** GraphQL shapes posts and pages share: a content block and the publish state. */
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { JSONObject } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { PublishState } from '../entities/block.ts';

/** The state of a post or page (moves: services/states.ts). */
export const PublishStateEnum = stateEnum<PublishState>('PublishState', 'Whether a post or page is visible on the storefront.', {
  draft: 'Not visible to customers; the default for new content.',
  published: 'Visible on the storefront.',
});

@ObjectType('Block', { description: 'A content block: a stable id, a version that grows with each edit, a type and its data.' })
export class BlockNode {
  @Field(() => ID) id!: string;
  @Field(() => Int) version!: number;
  @Field(() => String) type!: string;
  @Field(() => JSONObject) data!: Record<string, unknown>;
}

@InputType()
export class BlockInput {
  @Field(() => String, { description: 'paragraph, heading, image, list, quote, code, divider, embed, file, faq, callout, gallery, cta, accordion, product, button, video or form' })
  type!: string;
  @Field(() => JSONObject, { nullable: true, description: 'The block data, e.g. { "text": "Hello" } for a paragraph.' }) data?: Record<string, unknown>;
  @Field(() => JSONObject, { nullable: true, description: 'Same as data (the append form of the name).' }) props?: Record<string, unknown>;
}
