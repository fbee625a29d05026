/** GraphQL shapes of a brand and the input that creates or changes one. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('Brand', { description: 'Who makes a product.' })
export class BrandNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) logoUrl?: string | null;
  @Field(() => DateTime) createdAt!: Date;
}

export const BrandPage = PageOf(BrandNode, 'BrandPage');

@InputType()
export class BrandInput {
  @Field(() => String, { nullable: true, description: "The brand's name. Required when creating." }) name?: string;
  @Field(() => String, { nullable: true, description: 'URL name, unique in the shop; made from the name when left out.' }) slug?: string;
  @Field(() => String, { nullable: true, description: 'About the brand, shown to customers.' }) description?: string;
  @Field(() => String, { nullable: true, description: "An http(s) URL of the brand's logo." }) logoUrl?: string;
}

export const brandNode = (b: BrandNode): BrandNode => ({
  id: b.id,
  name: b.name,
  slug: b.slug,
  description: b.description ?? null,
  logoUrl: b.logoUrl ?? null,
  createdAt: b.createdAt,
});
