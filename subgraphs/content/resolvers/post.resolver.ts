import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { JSONObject } from '../../kernel/scalars.ts';
import { ContentCategory } from '../entities/category.ts';
import type { PublishState } from '../entities/block.ts';
import type { Post } from '../entities/post.ts';
import type { Row } from '../../kernel/reads.ts';
import { PostType } from '../entities/post-type.ts';
import { DEFAULT_TYPE } from '../services/post-types.ts';
import * as posts from '../services/posts.ts';
import { PublishStateEnum } from './block.types.ts';
import { ContentCategoryNode } from './category.types.ts';
import { PostInput, PostNode, PostPage } from './post.types.ts';

/** Posts and their blocks. Storefronts read published posts only. */
@Resolver(() => PostNode)
export class PostResolver {
  // Storefront reads.
  @Requires('public')
  @Query(() => PostPage, { description: 'Published posts, newest first.' })
  async cmsPosts(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return posts.listPosts(ctx, args, true);
  }

  @Requires('public')
  @Query(() => PostNode, { description: 'A published post with its ordered blocks.' })
  async cmsPost(@Ctx() ctx: RequestContext, @Arg('slug', () => String) slug: string) {
    return posts.findPost(ctx, slug, true);
  }

  // Merchant.
  @Requires('merchant')
  @Query(() => PostPage, { description: 'Posts of any status (drafts included), newest first.' })
  async posts(
    @Ctx() ctx: RequestContext,
    @Args(() => ListArgs) args: ListArgs,
    @Arg('status', () => PublishStateEnum, { nullable: true, description: 'Only posts in this state.' }) status?: PublishState,
    @Arg('categoryId', () => ID, { nullable: true }) categoryId?: string,
    @Arg('type', () => String, { nullable: true }) type?: string,
    @Arg('offset', () => Int, { nullable: true }) offset?: number,
  ) {
    return posts.listPosts(ctx, { ...args, status, categoryId, type, offset }, false);
  }

  @Requires('merchant')
  @Query(() => PostNode, { description: 'A post of any status with its ordered blocks.' })
  async post(@Ctx() ctx: RequestContext, @Arg('slug', () => String) slug: string) {
    return posts.findPost(ctx, slug, false);
  }

  @Requires('merchant')
  @Mutation(() => PostNode, { description: 'Creates a post (a draft unless status says published).' })
  async createPost(@Ctx() ctx: RequestContext, @Arg('input', () => PostInput) input: PostInput) {
    return posts.createPost(ctx, input);
  }

  @Requires('merchant')
  @Mutation(() => PostNode, { description: 'Changes status, title, slug, category, fields or excerpt of a post.' })
  async updatePost(@Ctx() ctx: RequestContext, @Arg('postId', () => ID) postId: string, @Arg('input', () => PostInput) input: PostInput) {
    return posts.updatePost(ctx, postId, input);
  }

  @Requires('merchant')
  @Mutation(() => PostNode, { description: 'Appends a block; `props` become its data.' })
  async appendPostBlock(@Ctx() ctx: RequestContext, @Arg('postId', () => ID) postId: string, @Arg('type', () => String) type: string, @Arg('props', () => JSONObject, { nullable: true }) props?: Record<string, unknown>) {
    return posts.appendBlock(ctx, postId, type, props);
  }

  @Requires('merchant')
  @Mutation(() => PostNode, { description: 'Puts the blocks in the given order (every block id exactly once).' })
  async reorderPostBlocks(@Ctx() ctx: RequestContext, @Arg('postId', () => ID) postId: string, @Arg('blockIds', () => [ID]) blockIds: string[]) {
    return posts.reorderBlocks(ctx, postId, blockIds);
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
    return posts.replaceBlock(ctx, postId, index, type, props);
  }

  @FieldResolver(() => String, { description: 'The post type key.' })
  async type(@Ctx() ctx: RequestContext, @Root() post: Row<Post>) {
    const type = await ctx.byId(PostType, post.postTypeId);
    return type?.key ?? DEFAULT_TYPE.key;
  }

  @FieldResolver(() => ContentCategoryNode, { nullable: true })
  async category(@Ctx() ctx: RequestContext, @Root() post: Row<Post>) {
    return post.categoryId ? ctx.byId(ContentCategory, post.categoryId) : null;
  }
}
