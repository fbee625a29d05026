import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { parse } from '../../kernel/schemas.ts';
import * as types from '../services/post-types.ts';
import { NewPostType, NewPostTypeField } from './post-type.inputs.ts';
import { CreatePostTypeFieldInput, CreatePostTypeInput, PostTypeFieldNode, PostTypeNode } from './post-type.types.ts';

/** Post types and their custom fields, managed by the merchant. */
@Resolver(() => PostTypeNode)
export class PostTypeResolver {
  @Requires('merchant', 'content')
  @Query(() => [PostTypeNode], { description: 'Post types, the default `post` first.' })
  async postTypes(@Ctx() ctx: RequestContext) {
    return types.listPostTypes(ctx);
  }

  @Requires('merchant', 'content')
  @Mutation(() => PostTypeNode)
  async createPostType(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CreatePostTypeInput, { description: 'The post type to create.' }) input: CreatePostTypeInput,
  ) {
    return types.createPostType(ctx, parse(NewPostType, input));
  }

  @Requires('merchant', 'content')
  @Mutation(() => PostTypeFieldNode)
  async createPostTypeField(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CreatePostTypeFieldInput, { description: 'The field to add to a post type.' }) input: CreatePostTypeFieldInput,
  ) {
    return types.createPostTypeField(ctx, parse(NewPostTypeField, input));
  }

  @FieldResolver(() => [PostTypeFieldNode])
  async fields(@Ctx() ctx: RequestContext, @Root() type: PostTypeNode) {
    return types.fieldsOf(ctx, type.id);
  }
}
