/** GraphQL shapes of a collection and the inputs that create or change one. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('Collection', { description: 'A hand-picked set of products, e.g. "Summer sale".' })
export class CollectionNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => DateTime) createdAt!: Date;
}

export const CollectionPage = PageOf(CollectionNode, 'CollectionPage');

@InputType()
export class CollectionInput {
  @Field(() => String, { nullable: true, description: "The collection's name. Required when creating." }) name?: string;
  @Field(() => String, { nullable: true, description: 'URL name, unique in the shop; made from the name when left out.' }) slug?: string;
  @Field(() => String, { nullable: true, description: 'About the collection, shown to customers.' }) description?: string;
  @Field(() => [ID], { nullable: true, description: 'Products to put in it when creating (from list_products).' }) productIds?: string[];
}

export const collectionNode = (c: CollectionNode): CollectionNode => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  description: c.description ?? null,
  createdAt: c.createdAt,
});
