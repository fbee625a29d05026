/** GraphQL shapes of a product category and the inputs that create and change one. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('ProductCategory', { description: 'A section of the shop; categories nest.' })
export class ProductCategoryNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => ID, { nullable: true, description: 'The category it sits in; null at the top.' }) parentId?: string | null;
  @Field(() => DateTime) createdAt!: Date;
}

export const ProductCategoryPage = PageOf(ProductCategoryNode, 'ProductCategoryPage');

@InputType()
export class ProductCategoryInput {
  @Field(() => String, { nullable: true, description: 'The category\'s name, e.g. "Mugs". Required when creating.' }) name?: string;
  @Field(() => String, { nullable: true, description: 'URL name, unique in the shop; made from the name when left out.' }) slug?: string;
  @Field(() => String, { nullable: true, description: 'What the category holds, shown to customers.' }) description?: string;
  @Field(() => ID, { nullable: true, description: 'The category it sits in (from list_product_categories); null for the top level.' }) parentId?: string;
}

export const categoryNode = (c: Omit<ProductCategoryNode, never>): ProductCategoryNode => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  description: c.description ?? null,
  parentId: c.parentId ?? null,
  createdAt: c.createdAt,
});
