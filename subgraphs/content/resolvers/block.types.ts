/** GraphQL shapes posts and pages share: a content block and the publish state. */
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { JSONObject } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { PublishState } from '../entities/block.ts';
import { BLOCK_TYPES } from '../services/blocks.ts';

/**
 * What each block type's data holds (services/blocks.ts checks it): told to agents and API
 * clients in the BlockType enum and in every `data`/`props` description, since JSON has no
 * schema per type. A block type without an entry here fails at start-up.
 */
export const BLOCK_SHAPES: Record<string, string> = {
  paragraph: '{ text }',
  heading: '{ text (at most 300 characters), level? (1 to 6, default 2) }',
  image: '{ url (http(s) URL or /path), alt, caption? }',
  list: '{ items: [text, …], style?: "ordered" | "unordered" (default) }',
  quote: '{ text, cite? }',
  code: '{ code, language? }',
  divider: '{ } (no data)',
  embed: '{ url, caption? }',
  file: '{ url, name? }',
  faq: '{ items: [{ question, answer }, …] }',
  callout: '{ text, tone?: "info" (default) | "success" | "warning" | "danger" }',
  gallery: '{ images: [{ url, alt }, …] }',
  cta: '{ text, url }',
  accordion: '{ items: [{ title, content }, …] }',
  product: '{ productId }',
  button: '{ text, url }',
  video: '{ url, caption? }',
  form: '{ surveyId } (the survey the form shows)',
};
for (const type of BLOCK_TYPES) if (!BLOCK_SHAPES[type]) throw new Error(`content: block type ${type} has no entry in BLOCK_SHAPES`);

/** The block types, each described by the data it holds. */
export const BlockTypeEnum = stateEnum<string>(
  'BlockType',
  'The type of a content block; each value says what its data holds.',
  Object.fromEntries(BLOCK_TYPES.map((t) => [t, `data ${BLOCK_SHAPES[t]}`])),
);

/** The description of a block's free-form data: its shape for every type. */
export const BLOCK_DATA_DESCRIPTION = `The block's data; its shape depends on the type: ${BLOCK_TYPES.map((t) => `${t} ${BLOCK_SHAPES[t]}`).join('; ')}.`;

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
  @Field(() => BlockTypeEnum, { description: 'The block type.' })
  type!: string;
  @Field(() => JSONObject, { nullable: true, description: BLOCK_DATA_DESCRIPTION }) data?: Record<string, unknown>;
  @Field(() => JSONObject, { nullable: true, description: 'Same as data (the append form of the name).' }) props?: Record<string, unknown>;
}
