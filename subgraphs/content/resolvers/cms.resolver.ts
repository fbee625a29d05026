import { Arg, Args, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { JSONObject } from '../../kernel/scalars.ts';
import { ContentCategory, PostType, type Post } from '../entities/cms.ts';
import * as cms from '../services/cms.ts';
import * as pages from '../services/pages.ts';
import {
  ContentCategoryNode,
  ContentCategoryPage,
  MenuItemInput,
  MenuNode,
  PageInput,
  PageList,
  PageNode,
  PostInput,
  PostNode,
  PostPage,
  PostTypeFieldNode,
  PostTypeNode,
} from './types.ts';

@InputType()
export class CreateContentCategoryInput {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) slug?: string;
}

@InputType()
export class CreatePostTypeInput {
  @Field(() => String, { description: 'Lower-case key, e.g. "recipe".' }) key!: string;
  @Field(() => String) label!: string;
}

@InputType()
export class CreatePostTypeFieldInput {
  @Field(() => ID) postTypeId!: string;
  @Field(() => String) key!: string;
  @Field(() => String) label!: string;
  @Field(() => String, { description: 'text, number, boolean, date, image, url, select or richtext' }) fieldType!: string;
  @Field(() => Boolean, { nullable: true }) required?: boolean;
  @Field(() => [String], { nullable: true, description: 'Choices of a select field.' }) options?: string[];
}

/** Posts, post types and fields, categories, pages and menus. Storefronts read published content only. */
@Resolver(() => PostNode)
export class CmsResolver {
  // Storefront reads.
  @Requires('public')
  @Query(() => PostPage, { description: 'Published posts, newest first.' })
  async cmsPosts(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return cms.listPosts(ctx, args, true);
  }

  @Requires('public')
  @Query(() => PostNode, { description: 'A published post with its ordered blocks.' })
  async cmsPost(@Ctx() ctx: RequestContext, @Arg('slug', () => String) slug: string) {
    return cms.findPost(ctx, slug, true);
  }

  @Requires('public')
  @Query(() => PageList, { description: 'Published pages.' })
  async cmsPages(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return pages.listPages(ctx, args, true);
  }

  @Requires('public')
  @Query(() => PageNode, { description: 'A published page.' })
  async cmsPage(@Ctx() ctx: RequestContext, @Arg('slug', () => String) slug: string) {
    return pages.findPage(ctx, slug, true);
  }

  @Requires('public')
  @Query(() => ContentCategoryPage, { description: 'Content categories.' })
  async contentCategories(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return cms.listCategories(ctx, { ...args, limit: args.limit ?? 100 });
  }

  @Requires('public')
  @Query(() => MenuNode, { description: 'The navigation menu of a location (header, footer…), linking published content only.' })
  async cmsMenu(@Ctx() ctx: RequestContext, @Arg('location', () => String) location: string) {
    return pages.resolveMenu(ctx, await pages.findMenu(ctx, location), true);
  }

  // Merchant.
  @Requires('merchant')
  @Mutation(() => ContentCategoryNode)
  async createContentCategory(@Ctx() ctx: RequestContext, @Arg('input', () => CreateContentCategoryInput) input: CreateContentCategoryInput) {
    return cms.createCategory(ctx, input);
  }

  @Requires('merchant')
  @Query(() => [PostTypeNode], { description: 'Post types, the default `post` first.' })
  async postTypes(@Ctx() ctx: RequestContext) {
    return cms.listPostTypes(ctx);
  }

  @Requires('merchant')
  @Mutation(() => PostTypeNode)
  async createPostType(@Ctx() ctx: RequestContext, @Arg('input', () => CreatePostTypeInput) input: CreatePostTypeInput) {
    return cms.createPostType(ctx, input);
  }

  @Requires('merchant')
  @Mutation(() => PostTypeFieldNode)
  async createPostTypeField(@Ctx() ctx: RequestContext, @Arg('input', () => CreatePostTypeFieldInput) input: CreatePostTypeFieldInput) {
    return cms.createPostTypeField(ctx, input);
  }

  @Requires('merchant')
  @Mutation(() => PostNode, { description: 'Creates a post (a draft unless status says published).' })
  async createPost(@Ctx() ctx: RequestContext, @Arg('input', () => PostInput) input: PostInput) {
    return cms.createPost(ctx, input);
  }

  @Requires('merchant')
  @Mutation(() => PostNode, { description: 'Changes status, title, slug, category, fields or excerpt of a post.' })
  async updatePost(@Ctx() ctx: RequestContext, @Arg('postId', () => ID) postId: string, @Arg('input', () => PostInput) input: PostInput) {
    return cms.updatePost(ctx, postId, input);
  }

  @Requires('merchant')
  @Mutation(() => PostNode, { description: 'Appends a block; `props` become its data.' })
  async appendPostBlock(@Ctx() ctx: RequestContext, @Arg('postId', () => ID) postId: string, @Arg('type', () => String) type: string, @Arg('props', () => JSONObject, { nullable: true }) props?: Record<string, unknown>) {
    return cms.appendBlock(ctx, postId, type, props);
  }

  @Requires('merchant')
  @Mutation(() => PostNode, { description: 'Puts the blocks in the given order (every block id exactly once).' })
  async reorderPostBlocks(@Ctx() ctx: RequestContext, @Arg('postId', () => ID) postId: string, @Arg('blockIds', () => [ID]) blockIds: string[]) {
    return cms.reorderBlocks(ctx, postId, blockIds);
  }

  @Requires('merchant')
  @Mutation(() => PostNode, { description: 'Replaces the block at index: it keeps its id, its version grows.' })
  async replacePostBlock(
    @Ctx() ctx: RequestContext,
    @Arg('postId', () => ID) postId: string,
    @Arg('index', () => Int) index: number,
    @Arg('props', () => JSONObject) props: Record<string, unknown>,
    @Arg('type', () => String, { nullable: true }) type?: string,
  ) {
    return cms.replaceBlock(ctx, postId, index, type, props);
  }

  @Requires('merchant')
  @Query(() => PostPage, { description: 'Posts of any status (drafts included), newest first.' })
  async posts(
    @Ctx() ctx: RequestContext,
    @Args(() => ListArgs) args: ListArgs,
    @Arg('status', () => String, { nullable: true }) status?: string,
    @Arg('categoryId', () => ID, { nullable: true }) categoryId?: string,
    @Arg('type', () => String, { nullable: true }) type?: string,
    @Arg('offset', () => Int, { nullable: true }) offset?: number,
  ) {
    return cms.listPosts(ctx, { ...args, status, categoryId, type, offset }, false);
  }

  @Requires('merchant')
  @Query(() => PostNode, { description: 'A post of any status with its ordered blocks.' })
  async post(@Ctx() ctx: RequestContext, @Arg('slug', () => String) slug: string) {
    return cms.findPost(ctx, slug, false);
  }

  @Requires('merchant')
  @Query(() => PageList, { description: 'Pages of any status.' })
  async pages(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return pages.listPages(ctx, args, false);
  }

  @Requires('merchant')
  @Mutation(() => PageNode, { description: 'Creates a page (a draft unless status says published).' })
  async createPage(@Ctx() ctx: RequestContext, @Arg('input', () => PageInput) input: PageInput) {
    return pages.createPage(ctx, input);
  }

  @Requires('merchant')
  @Mutation(() => PageNode)
  async updatePage(@Ctx() ctx: RequestContext, @Arg('pageId', () => ID) pageId: string, @Arg('input', () => PageInput) input: PageInput) {
    return pages.updatePage(ctx, pageId, input);
  }

  @Requires('merchant')
  @Mutation(() => MenuNode, { description: 'Sets the whole menu of a location.' })
  async setMenu(@Ctx() ctx: RequestContext, @Arg('location', () => String) location: string, @Arg('items', () => [MenuItemInput]) items: MenuItemInput[]) {
    return pages.resolveMenu(ctx, await pages.setMenu(ctx, location, items), false);
  }

  @FieldResolver(() => String, { description: 'The post type key.' })
  async type(@Ctx() ctx: RequestContext, @Root() post: Post) {
    const type = await ctx.byId(PostType, post.postTypeId);
    return type?.key ?? cms.DEFAULT_TYPE.key;
  }

  @FieldResolver(() => ContentCategoryNode, { nullable: true })
  async category(@Ctx() ctx: RequestContext, @Root() post: Post) {
    return post.categoryId ? ctx.byId(ContentCategory, post.categoryId) : null;
  }
}

@Resolver(() => PostTypeNode)
export class PostTypeResolver {
  @FieldResolver(() => [PostTypeFieldNode])
  async fields(@Ctx() ctx: RequestContext, @Root() type: PostTypeNode) {
    return ctx.loader('content.typeFields', (ids: readonly string[]) => cms.fieldsOfTypes(ctx, ids)).load(type.id);
  }
}
