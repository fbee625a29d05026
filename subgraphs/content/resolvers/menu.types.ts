/** GraphQL shapes of a navigation menu and its items. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('MenuItem')
export class MenuItemNode {
  @Field(() => String) label!: string;
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => ID, { nullable: true }) pageId?: string | null;
  @Field(() => ID, { nullable: true }) postId?: string | null;
  @Field(() => String, { nullable: true, description: 'Slug of the linked page or post.' }) slug?: string | null;
  @Field(() => String, { nullable: true, description: 'Where the item leads: the URL, /<page slug> or /posts/<post slug>.' }) href?: string | null;
  @Field(() => [MenuItemNode]) children!: MenuItemNode[];
}

@ObjectType('Menu')
export class MenuNode {
  @Field(() => ID) id!: string;
  @Field(() => String) location!: string;
  @Field(() => [MenuItemNode]) items!: MenuItemNode[];
  @Field(() => DateTime) updatedAt!: Date;
}

@InputType()
export class MenuItemInput {
  @Field(() => String, { description: 'The text of the link.' }) label!: string;
  @Field(() => String, { nullable: true, description: 'Where it links: an http(s) URL or a path (give one of url, pageId, postId).' }) url?: string;
  @Field(() => ID, { nullable: true, description: 'The page it links to.' }) pageId?: string;
  @Field(() => ID, { nullable: true, description: 'The post it links to.' }) postId?: string;
  @Field(() => [MenuItemInput], { nullable: true, description: "A submenu's items." }) children?: MenuItemInput[];
}
