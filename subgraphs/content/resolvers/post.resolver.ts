import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { JSONObject } from '../../kernel/scalars.ts';
import { parse } from '../../kernel/schemas.ts';
import type { PublishState } from '../entities/block.ts';
import type { BlockType } from '../services/blocks.ts';
import * as posts from '../services/posts.ts';
import type { PostRow } from '../services/posts.ts';
import { AppendedBlock } from './block.inputs.ts';
import { BLOCK_DATA_DESCRIPTION, BlockTypeEnum, PublishStateEnum } from './block.types.ts';
import { ContentCategoryNode } from './category.types.ts';
import { BlockIds, NewPost, PostId, PostListFilter, PostSlug, PostUpdate } from './post.inputs.ts';
import { PostInput, PostNode, PostPage } from './post.types.ts';

/** Posts and their blocks. Storefronts read published posts only. */
@Resolver(() => PostNode)
export class PostResolver {
  // Storefront reads.
  @Requires('public', 'content')
  @Query(() => PostPage, { description: 'Published posts, newest first.' })
  async cmsPosts(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return posts.listPosts(ctx, args, true);
  }

  @Requires('public', 'content')
  @Query(() => PostNode, { description: 'A published post with its ordered blocks.' })
  async cmsPost(@Ctx() ctx: RequestContext, @Arg('slug', () => String, { description: "The post's slug." }) slug: string) {
    return posts.findPost(ctx, parse(PostSlug, slug, 'slug'), true);
  }

  // Merchant.
  @Requires('merchant', 'content')
  @Query(() => PostPage, { description: 'Posts of any status (drafts included), newest first.' })
  async posts(
    @Ctx() ctx: RequestContext,
    @Args(() => ListArgs) args: ListArgs,
    @Arg('status', () => PublishStateEnum, { nullable: true, description: 'Only posts in this state.' }) status?: PublishState,
    @Arg('categoryId', () => ID, { nullable: true, description: 'Only posts in this category.' }) categoryId?: string,
    @Arg('type', () => String, { nullable: true, description: 'Only posts of this post type key (default: all types).' }) type?: string,
    @Arg('offset', () => Int, { nullable: true, description: 'Posts to skip (instead of page). At least 0.' }) offset?: number,
  ) {
    return posts.listPosts(ctx, { ...args, offset, ...parse(PostListFilter, { status, categoryId, type }) }, false);
  }

  @Requires('merchant', 'content')
  @Query(() => PostNode, { description: 'A post of any status with its ordered blocks.' })
  async post(@Ctx() ctx: RequestContext, @Arg('slug', () => String, { description: "The post's slug." }) slug: string) {
    return posts.findPost(ctx, parse(PostSlug, slug, 'slug'), false);
  }

  @Requires('merchant', 'content')
  @Mutation(() => PostNode, { description: 'Creates a post (a draft unless status says published).' })
  async createPost(@Ctx() ctx: RequestContext, @Arg('input', () => PostInput, { description: 'The post to create.' }) input: PostInput) {
    return posts.createPost(ctx, parse(NewPost, input));
  }

  @Requires('merchant', 'content')
  @Mutation(() => PostNode, { description: 'Changes status, title, slug, category, fields or excerpt of a post.' })
  async updatePost(
    @Ctx() ctx: RequestContext,
    @Arg('postId', () => ID, { description: "The post's id." }) postId: string,
    @Arg('input', () => PostInput, { description: 'The fields to change; fields left out keep their value.' }) input: PostInput,
  ) {
    return posts.updatePost(ctx, parse(PostId, postId, 'postId'), parse(PostUpdate, input));
  }

  @Requires('merchant', 'content')
  @Mutation(() => PostNode, { description: 'Appends a block; `props` become its data.' })
  async appendPostBlock(
    @Ctx() ctx: RequestContext,
    @Arg('postId', () => ID, { description: "The post's id." }) postId: string,
    @Arg('type', () => BlockTypeEnum, { description: 'The block type.' }) type: string,
    @Arg('props', () => JSONObject, { nullable: true, description: BLOCK_DATA_DESCRIPTION }) props?: Record<string, unknown>,
  ) {
    return posts.appendBlock(ctx, parse(PostId, postId, 'postId'), parse(AppendedBlock, { type, props }));
  }

  @Requires('merchant', 'content')
  @Mutation(() => PostNode, { description: 'Puts the blocks in the given order (every block id exactly once).' })
  async reorderPostBlocks(
    @Ctx() ctx: RequestContext,
    @Arg('postId', () => ID, { description: "The post's id." }) postId: string,
    @Arg('blockIds', () => [ID], { description: 'Every block id of the post, in the new order.' }) blockIds: string[],
  ) {
    return posts.reorderBlocks(ctx, parse(PostId, postId, 'postId'), parse(BlockIds, blockIds, 'blockIds'));
  }

  @Requires('merchant', 'content')
  @Mutation(() => PostNode, { description: 'Replaces the block at index: it keeps its id, its version grows.' })
  async replacePostBlock(
    @Ctx() ctx: RequestContext,
    @Arg('postId', () => ID, { description: "The post's id." }) postId: string,
    @Arg('index', () => Int, { description: 'Position of the block to replace, counted from 0. At least 0.' }) index: number,
    @Arg('props', () => JSONObject, { description: BLOCK_DATA_DESCRIPTION }) props: Record<string, unknown>,
    @Arg('type', () => BlockTypeEnum, { nullable: true, description: "The block's new type (default: keep its type)." }) type?: BlockType,
  ) {
    return posts.replaceBlock(ctx, parse(PostId, postId, 'postId'), index, type, props);
  }

  @FieldResolver(() => String, { description: 'The post type key.' })
  async type(@Ctx() ctx: RequestContext, @Root() post: PostRow) {
    return posts.postTypeKey(ctx, post);
  }

  @FieldResolver(() => ContentCategoryNode, { nullable: true })
  async category(@Ctx() ctx: RequestContext, @Root() post: PostRow) {
    return posts.postCategory(ctx, post);
  }
}
